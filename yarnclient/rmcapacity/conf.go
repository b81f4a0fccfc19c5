package rmcapacity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/specbridge/specbridge/internal/hadoopconf"
)

// SiteConf is the properties of one or more Hadoop *-site.xml files.
type SiteConf map[string]string

// siteFiles are the site files LoadSite reads, in Hadoop's order of
// resources: core-site.xml first (Configuration's own), then
// mapred-site.xml (JobConf's) and yarn-site.xml (YarnConfiguration's).
// Choice: Hadoop's order between the last two depends on which class a
// client loads first; yarn-site.xml last keeps the precedence LoadSite had
// before it followed Hadoop's rules (yarn over mapred over core).
var siteFiles = []string{"core-site.xml", "mapred-site.xml", "yarn-site.xml"}

// LoadSite reads core-site.xml, mapred-site.xml and yarn-site.xml from dir
// (the ones that exist), each of at most hadoopconf.MaxBytes, keeping every
// key. Precedence is Hadoop's: a later property of the same name, in one
// file or in a later file, overrides an earlier one unless that was
// <final>true</final>. A missing directory or a file that is not Hadoop
// configuration XML is an error naming the file (and the line, where
// known).
func LoadSite(dir string) (SiteConf, error) {
	c, _, err := hadoopconf.ReadDir(dir, hadoopconf.Limits{}, siteFiles...)
	if err != nil {
		return nil, err
	}
	return SiteConf(c.Map()), nil
}

// defaultWebPort is the RM web port when only yarn.resourcemanager.hostname
// is set (Hadoop's default, 8088; 8090 for HTTPS).
const (
	defaultWebPort      = "8088"
	defaultHTTPSWebPort = "8090"
)

// RMAddresses lists the ResourceManagers' web addresses as YARN's own
// clients find them: with yarn.resourcemanager.ha.enabled, one per id of
// yarn.resourcemanager.ha.rm-ids, from yarn.resourcemanager.webapp.address.ID
// (webapp.https.address.ID under yarn.http.policy=HTTPS_ONLY), else
// yarn.resourcemanager.hostname.ID and the default port; without HA the
// same keys without the id. Empty when the configuration names no RM.
func (c SiteConf) RMAddresses() ([]string, error) {
	https := strings.EqualFold(c["yarn.http.policy"], "HTTPS_ONLY")
	key, port, scheme := "yarn.resourcemanager.webapp.address", defaultWebPort, "http://"
	if https {
		key, port, scheme = "yarn.resourcemanager.webapp.https.address", defaultHTTPSWebPort, "https://"
	}
	one := func(suffix string) string {
		if a := c[key+suffix]; a != "" && !strings.HasPrefix(a, "0.0.0.0:") && !strings.HasPrefix(a, "${") {
			return scheme + a
		}
		if h := c["yarn.resourcemanager.hostname"+suffix]; h != "" && h != "0.0.0.0" {
			return scheme + h + ":" + port
		}
		return ""
	}
	if strings.EqualFold(c["yarn.resourcemanager.ha.enabled"], "true") {
		var out []string
		for _, id := range strings.Split(c["yarn.resourcemanager.ha.rm-ids"], ",") {
			if id = strings.TrimSpace(id); id == "" {
				continue
			}
			a := one("." + id)
			if a == "" {
				return nil, fmt.Errorf("ResourceManager %s of yarn.resourcemanager.ha.rm-ids has no %s.%s nor yarn.resourcemanager.hostname.%s", id, key, id, id)
			}
			out = append(out, a)
		}
		if len(out) == 0 {
			return nil, errors.New("yarn.resourcemanager.ha.enabled is true but yarn.resourcemanager.ha.rm-ids lists no ResourceManager")
		}
		return out, nil
	}
	if a := one(""); a != "" {
		return []string{a}, nil
	}
	return nil, nil
}

// Secured reports whether the RM's web API wants SPNEGO
// (hadoop.http.authentication.type=kerberos in core-site.xml).
func (c SiteConf) Secured() bool {
	return strings.EqualFold(c["hadoop.http.authentication.type"], "kerberos")
}

// Container is the size of one container in the capacity's count.
type Container struct {
	MB     int64
	VCores int64
}

// MapContainer is the size of a map task's container as the RM grants it:
// mapreduce.map.memory.mb (default 1024; Hadoop's own default, -1 or any
// non-positive value, means the same) and mapreduce.map.cpu.vcores
// (default 1), each rounded up to a multiple of the scheduler's minimum
// allocation (yarn.scheduler.minimum-allocation-mb, default 1024, and
// -vcores, default 1), as the scheduler normalises a request.
//
// Choice: the policies count slots, the RM counts memory and vcores; a map
// container is the unit because the copies sca, dolly and ese ask for are
// maps' copies far more often than reduces' (every small job's task is
// cloned, reduces are few), and the AM's own jobs use this size.
func (c SiteConf) MapContainer() (Container, error) {
	get := func(key string, def int64) (int64, error) {
		v := c[key]
		if v == "" {
			return def, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err == nil && n <= 0 && key == "mapreduce.map.memory.mb" {
			// Hadoop's mapred-default.xml ships -1: "not specified", the size
			// inferred from the task's heap, and 1024 when that is unset too.
			return def, nil
		}
		if err != nil || n <= 0 || n > 1<<40 {
			return 0, fmt.Errorf("%s = %q: want a positive whole number", key, v)
		}
		return n, nil
	}
	var vals [4]int64
	for i, kd := range []struct {
		k string
		d int64
	}{{"mapreduce.map.memory.mb", 1024}, {"yarn.scheduler.minimum-allocation-mb", 1024},
		{"mapreduce.map.cpu.vcores", 1}, {"yarn.scheduler.minimum-allocation-vcores", 1}} {
		n, err := get(kd.k, kd.d)
		if err != nil {
			return Container{}, err
		}
		vals[i] = n
	}
	roundUp := func(x, step int64) int64 { return (x + step - 1) / step * step }
	return Container{MB: roundUp(vals[0], vals[1]), VCores: roundUp(vals[2], vals[3])}, nil
}
