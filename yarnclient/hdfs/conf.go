package hdfs

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"

	"github.com/colinmarc/hdfs/v2/hadoopconf"
	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// defaultRPCPort is the NameNode's RPC port when an address names a host
// alone (Hadoop's default, 8020).
const defaultRPCPort = "8020"

// The cluster's configuration, as Hadoop's own clients read it: from the
// directory given to UseConf (the CLI's --hadoop-conf), else
// HADOOP_CONF_DIR, else HADOOP_HOME/etc/hadoop (core-site.xml and
// hdfs-site.xml). Loaded once, when an address first needs it.
var conf struct {
	mu     sync.Mutex
	dir    string // set by UseConf
	loaded bool
	c      hadoopconf.HadoopConf
	err    error
}

// UseConf makes dir the Hadoop configuration directory (instead of
// HADOOP_CONF_DIR). It is read at once, so that a bad directory is named at
// start.
func UseConf(dir string) error {
	c, err := hadoopconf.Load(dir)
	if err == nil && len(c) == 0 {
		err = errors.New("no core-site.xml or hdfs-site.xml there")
	}
	conf.mu.Lock()
	defer conf.mu.Unlock()
	conf.dir, conf.loaded, conf.c, conf.err = dir, true, c, err
	if err != nil {
		return fmt.Errorf("reading the Hadoop configuration in %s: %w", dir, err)
	}
	return nil
}

// Conf returns the cluster's configuration (empty when there is none).
func Conf() (hadoopconf.HadoopConf, error) {
	conf.mu.Lock()
	defer conf.mu.Unlock()
	if !conf.loaded {
		conf.loaded = true
		conf.c, conf.err = hadoopconf.LoadFromEnvironment()
		if conf.err != nil {
			conf.err = fmt.Errorf("reading the Hadoop configuration from HADOOP_CONF_DIR / HADOOP_HOME: %w", conf.err)
		}
	}
	return conf.c, conf.err
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
func Addresses(authority string) ([]string, error) {
	c, err := Conf()
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

// resetConf forgets the loaded configuration (tests).
func resetConf() {
	conf.mu.Lock()
	defer conf.mu.Unlock()
	conf.dir, conf.loaded, conf.c, conf.err = "", false, nil, nil
}

// KerberosLogin is the Kerberos client the HDFS client would use (keytab or
// ticket cache, as kerberos says), for other Hadoop services of the same
// cluster (the ResourceManager's SPNEGO-protected web API); nil when the
// configuration does not say hadoop.security.authentication=kerberos.
func KerberosLogin() (*krb.Client, error) {
	c, err := Conf()
	if err != nil {
		return nil, err
	}
	kc, _, err := kerberos(c)
	return kc, err
}
