package hdfs

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/colinmarc/hdfs/v2/hadoopconf"
	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// defaultRPCPort is the NameNode's RPC port when an address names a host
// alone (Hadoop's default, 8020).
const defaultRPCPort = "8020"

// Config is how this process reaches HDFS: the cluster's configuration
// as Hadoop's own clients read it (core-site.xml and hdfs-site.xml: from
// the CLI's --hadoop-conf, ConfDir, else HADOOP_CONF_DIR or
// HADOOP_HOME/etc/hadoop, EnvConf), and fault hooks for tests. The CLI
// makes one and passes it to what reads or writes hdfs:// paths (replay's
// inputs, the fault analyzer's store); the package keeps none of its own.
// A nil *Config is no configuration: hdfs://host:port/path addresses
// only, simple authentication.
type Config struct {
	hadoop hadoopconf.HadoopConf
	// err is why the environment's configuration did not load (EnvConf),
	// reported when an address needs the configuration.
	err error
	// Hooks, if not nil, are called at the points of a transfer where
	// fault-injection tests act (FaultHooks); production code leaves it
	// nil.
	Hooks *FaultHooks
}

// ConfDir reads the Hadoop configuration directory dir at once, so that a
// bad directory is named at start.
func ConfDir(dir string) (*Config, error) {
	c, err := hadoopconf.Load(dir)
	if err == nil && len(c) == 0 {
		err = errors.New("no core-site.xml or hdfs-site.xml there")
	}
	if err != nil {
		return nil, fmt.Errorf("reading the Hadoop configuration in %s: %w", dir, err)
	}
	return &Config{hadoop: c}, nil
}

// EnvConf is the configuration in HADOOP_CONF_DIR, else
// HADOOP_HOME/etc/hadoop; empty when neither is set. One that does not
// read is an error when an address needs it (hdfs:///path, a nameservice),
// not before: hdfs://host:port/path needs none.
func EnvConf() *Config {
	c, err := hadoopconf.LoadFromEnvironment()
	if err != nil {
		err = fmt.Errorf("reading the Hadoop configuration from HADOOP_CONF_DIR / HADOOP_HOME: %w", err)
	}
	return &Config{hadoop: c, err: err}
}

// conf returns the cluster's configuration (empty when there is none).
func (cfg *Config) conf() (hadoopconf.HadoopConf, error) {
	if cfg == nil {
		return nil, nil
	}
	return cfg.hadoop, cfg.err
}

// hooks are the fault hooks, nil when none are set.
func (cfg *Config) hooks() *FaultHooks {
	if cfg == nil {
		return nil
	}
	return cfg.Hooks
}

// defaultFS is the authority of fs.defaultFS (host:port or a nameservice).
func defaultFS(c hadoopconf.HadoopConf) (string, error) {
	v := c["fs.defaultFS"]
	if v == "" {
		v = c["fs.default.name"]
	}
	if v == "" {
		return "", errors.New("hdfs:///path needs fs.defaultFS: set HADOOP_CONF_DIR (or --hadoop-conf) to the cluster's configuration, or write hdfs://namenode:port/path")
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "hdfs" || u.Host == "" {
		return "", fmt.Errorf("fs.defaultFS %q is not an hdfs://authority", v)
	}
	return u.Host, nil
}

// Addresses resolves the authority of an hdfs:// URL to NameNode RPC
// addresses: an HA nameservice (dfs.nameservices, dfs.ha.namenodes.NS)
// to each of its NameNodes' dfs.namenode.rpc-address.NS.NN, in the order
// configured (the client fails over between them); host:port to itself; a
// host alone to its dfs.namenode.rpc-address, else host:8020.
func (cfg *Config) Addresses(authority string) ([]string, error) {
	c, err := cfg.conf()
	if err != nil && !strings.Contains(authority, ":") {
		return nil, err
	}
	return resolve(c, authority)
}

func resolve(c hadoopconf.HadoopConf, authority string) ([]string, error) {
	if strings.Contains(authority, ":") {
		return []string{authority}, nil
	}
	if nns := c["dfs.ha.namenodes."+authority]; nns != "" {
		var out []string
		for _, nn := range strings.Split(nns, ",") {
			nn = strings.TrimSpace(nn)
			addr := c["dfs.namenode.rpc-address."+authority+"."+nn]
			if addr == "" {
				return nil, fmt.Errorf("nameservice %s: NameNode %s has no dfs.namenode.rpc-address.%s.%s", authority, nn, authority, nn)
			}
			out = append(out, addr)
		}
		return out, nil
	}
	if addr := c["dfs.namenode.rpc-address."+authority]; addr != "" {
		return []string{addr}, nil
	}
	return []string{authority + ":" + defaultRPCPort}, nil
}

// kerberos returns a logged-in Kerberos client when the configuration says
// hadoop.security.authentication=kerberos, else nil. Credentials: the
// keytab SPECBRIDGE_HDFS_KEYTAB with the principal
// SPECBRIDGE_HDFS_PRINCIPAL (user@REALM), else the ticket cache
// (KRB5CCNAME, default /tmp/krb5cc_<uid>, as kinit writes it). krb5.conf
// is KRB5_CONFIG, default /etc/krb5.conf.
func kerberos(c hadoopconf.HadoopConf) (*krb.Client, string, error) {
	if !strings.EqualFold(c["hadoop.security.authentication"], "kerberos") {
		return nil, "", nil
	}
	cfgPath := os.Getenv("KRB5_CONFIG")
	if cfgPath == "" {
		cfgPath = "/etc/krb5.conf"
	}
	kcfg, err := config.Load(cfgPath)
	if err != nil {
		return nil, "", fmt.Errorf("logging in with Kerberos: krb5.conf %s (KRB5_CONFIG): %w", cfgPath, err)
	}
	if kt := os.Getenv("SPECBRIDGE_HDFS_KEYTAB"); kt != "" {
		princ := os.Getenv("SPECBRIDGE_HDFS_PRINCIPAL")
		name, realm, ok := strings.Cut(princ, "@")
		if !ok || name == "" || realm == "" {
			return nil, "", fmt.Errorf("logging in with Kerberos: SPECBRIDGE_HDFS_PRINCIPAL %q: want user@REALM with SPECBRIDGE_HDFS_KEYTAB", princ)
		}
		tab, err := keytab.Load(kt)
		if err != nil {
			return nil, "", fmt.Errorf("logging in with Kerberos: keytab %s: %w", kt, err)
		}
		cl := krb.NewWithKeytab(name, realm, tab, kcfg, krb.DisablePAFXFAST(true))
		if err := cl.Login(); err != nil {
			return nil, "", fmt.Errorf("logging in with Kerberos as %s with keytab %s: %w", princ, kt, err)
		}
		return cl, strings.Split(name, "/")[0], nil
	}
	ccPath := strings.TrimPrefix(os.Getenv("KRB5CCNAME"), "FILE:")
	if ccPath == "" {
		u, err := user.Current()
		if err != nil {
			return nil, "", fmt.Errorf("logging in with Kerberos: ticket cache: %w", err)
		}
		ccPath = filepath.Join(os.TempDir(), "krb5cc_"+u.Uid)
	}
	cc, err := credentials.LoadCCache(ccPath)
	if err != nil {
		return nil, "", fmt.Errorf("logging in with Kerberos: no keytab (SPECBRIDGE_HDFS_KEYTAB) and no ticket cache %s (kinit, or KRB5CCNAME): %w", ccPath, err)
	}
	cl, err := krb.NewFromCCache(cc, kcfg, krb.DisablePAFXFAST(true))
	if err != nil {
		return nil, "", fmt.Errorf("logging in with Kerberos: ticket cache %s: %w", ccPath, err)
	}
	return cl, strings.Split(cl.Credentials.UserName(), "/")[0], nil
}

// KerberosLogin is the Kerberos client the HDFS client would use (keytab or
// ticket cache, as kerberos says), for other Hadoop services of the same
// cluster (the ResourceManager's SPNEGO-protected web API); nil when the
// configuration does not say hadoop.security.authentication=kerberos.
func (cfg *Config) KerberosLogin() (*krb.Client, error) {
	c, err := cfg.conf()
	if err != nil {
		return nil, err
	}
	kc, _, err := kerberos(c)
	return kc, err
}
