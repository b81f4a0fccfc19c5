package hdfs

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/specbridge/specbridge/internal/hadoopconf"
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
	hadoop *hadoopconf.Conf
	// err is why the environment's configuration did not load (EnvConf),
	// reported when an address needs the configuration.
	err error
	// Hooks, if not nil, are called at the points of a transfer where
	// fault-injection tests act (FaultHooks); production code leaves it
	// nil.
	Hooks *FaultHooks
}

// siteConf is a cluster's configuration as the HDFS client reads it:
// core-site.xml, then hdfs-site.xml (HdfsConfiguration's resources, in
// Hadoop's order), through the module's one reader of Hadoop
// configuration XML: a later property wins unless an earlier one was
// final, each file is bounded (hadoopconf.MaxBytes), and errors name the
// file and line. mapred-site.xml, which colinmarc/hdfs's own loader also
// read, is not: Hadoop's HDFS client does not read it either.
func siteConf(dir string) (c *hadoopconf.Conf, found int, err error) {
	return hadoopconf.ReadDir(dir, hadoopconf.Limits{}, "core-site.xml", "hdfs-site.xml")
}

// ConfDir reads the Hadoop configuration directory dir at once, so that a
// bad directory is named at start.
func ConfDir(dir string) (*Config, error) {
	c, found, err := siteConf(dir)
	if err != nil {
		return nil, err
	}
	if found == 0 {
		return nil, fmt.Errorf("reading the Hadoop configuration in %s: no core-site.xml or hdfs-site.xml there", dir)
	}
	return &Config{hadoop: c}, nil
}

// EnvConf is the configuration in HADOOP_CONF_DIR, else
// HADOOP_HOME/etc/hadoop (where Hadoop's own scripts look when
// HADOOP_CONF_DIR is unset); empty when neither is set or neither holds
// core-site.xml or hdfs-site.xml. One that does not read is an error when
// an address needs it (hdfs:///path, a nameservice), not before:
// hdfs://host:port/path needs none.
func EnvConf() *Config {
	var dirs []string
	if d := os.Getenv("HADOOP_CONF_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	if h := os.Getenv("HADOOP_HOME"); h != "" {
		dirs = append(dirs, filepath.Join(h, "etc", "hadoop"))
	}
	for _, d := range dirs {
		c, found, err := siteConf(d)
		if err != nil {
			return &Config{err: fmt.Errorf("HADOOP_CONF_DIR / HADOOP_HOME: %w", err)}
		}
		if found > 0 {
			return &Config{hadoop: c}
		}
	}
	return &Config{}
}

// conf returns the cluster's configuration (empty when there is none).
func (cfg *Config) conf() (*hadoopconf.Conf, error) {
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
func defaultFS(c *hadoopconf.Conf) (string, error) {
	key := "fs.defaultFS"
	v := get(c, key)
	if v == "" {
		key = "fs.default.name"
		v = get(c, key)
	}
	if v == "" {
		return "", errors.New("hdfs:///path needs fs.defaultFS: set HADOOP_CONF_DIR (or --hadoop-conf) to the cluster's configuration, or write hdfs://namenode:port/path")
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "hdfs" || u.Host == "" {
		return "", fmt.Errorf("%s %q (%s) is not an hdfs://authority", key, v, c.Where(key))
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

// get is key's value in c, "" when unset or when there is no configuration.
func get(c *hadoopconf.Conf, key string) string {
	v, _ := c.Get(key)
	return v
}

func resolve(c *hadoopconf.Conf, authority string) ([]string, error) {
	if strings.Contains(authority, ":") {
		return []string{authority}, nil
	}
	if nns := get(c, "dfs.ha.namenodes."+authority); nns != "" {
		var out []string
		for _, nn := range strings.Split(nns, ",") {
			nn = strings.TrimSpace(nn)
			addr := get(c, "dfs.namenode.rpc-address."+authority+"."+nn)
			if addr == "" {
				return nil, fmt.Errorf("nameservice %s (%s): NameNode %s has no dfs.namenode.rpc-address.%s.%s", authority, c.Where("dfs.ha.namenodes."+authority), nn, authority, nn)
			}
			out = append(out, addr)
		}
		return out, nil
	}
	if addr := get(c, "dfs.namenode.rpc-address."+authority); addr != "" {
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
func kerberos(c *hadoopconf.Conf) (*krb.Client, string, error) {
	if !strings.EqualFold(get(c, "hadoop.security.authentication"), "kerberos") {
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
