package deploy

import (
	"encoding/xml"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
)

// The files under test, relative to this package.
const (
	composeFile    = "../docker-compose.yml"
	dockerfile     = "../Dockerfile"
	shimConfigFile = "../java-shim/src/main/java/org/specbridge/shim/ShimConfig.java"
	shimSources    = "../java-shim/src/main/java"
	shimPom        = "../java-shim/pom.xml"
)

// The property that names the AM's speculator class (Hadoop's MRJobConfig.MR_AM_JOB_SPECULATOR).
const speculatorClassKey = "yarn.app.mapreduce.am.job.speculator.class"

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "specbridge-deploy")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "specbridge")
	if out, err := exec.Command("go", "build", "-o", binary, "../cmd/specbridge").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ../cmd/specbridge: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// ---- the compose file, as much of it as the checks read ----

type composeSpec struct {
	Services map[string]*service `yaml:"services"`
	Volumes  map[string]any      `yaml:"volumes"`
	root     yaml.Node
}

type service struct {
	name        string
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Hostname    string            `yaml:"hostname"`
	Command     []string          `yaml:"command"`
	Environment map[string]string `yaml:"environment"`
	Volumes     []mount           `yaml:"volumes"`
	Healthcheck struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
}

// mount is one entry of a service's volumes, in the short (SOURCE:TARGET[:MODE]) or long syntax.
type mount struct {
	Type, Source, Target string
	ReadOnly             bool
	Long                 bool
	line                 int
}

func (m *mount) UnmarshalYAML(n *yaml.Node) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	m.line = n.Line
	switch n.Kind {
	case yaml.ScalarNode:
		parts := strings.Split(n.Value, ":")
		if len(parts) < 2 || len(parts) > 3 {
			return fmt.Errorf("line %d: volume %q: want SOURCE:TARGET[:MODE]", n.Line, n.Value)
		}
		m.Source, m.Target = parts[0], parts[1]
		m.ReadOnly = len(parts) == 3 && strings.Contains(parts[2], "ro")
		m.Type = "volume"
		if strings.HasPrefix(m.Source, ".") || strings.HasPrefix(m.Source, "/") {
			m.Type = "bind"
		}
	case yaml.MappingNode:
		var l struct {
			Type     string `yaml:"type"`
			Source   string `yaml:"source"`
			Target   string `yaml:"target"`
			ReadOnly bool   `yaml:"read_only"`
		}
		if err := n.Decode(&l); err != nil {
			return err
		}
		*m = mount{Type: l.Type, Source: l.Source, Target: l.Target, ReadOnly: l.ReadOnly, Long: true, line: n.Line}
	default:
		return fmt.Errorf("line %d: a volume is a string or a mapping", n.Line)
	}
	return nil
}

// covers says whether this mount makes file p visible: p is the target or lies under it.
func (m mount) covers(p string) bool {
	return m.Target == p || strings.HasPrefix(p, strings.TrimSuffix(m.Target, "/")+"/")
}

func parseCompose(data []byte) (*composeSpec, error) {
	var c composeSpec
	if err := yaml.Unmarshal(data, &c.root); err != nil {
		return nil, fmt.Errorf("%s: %v", composeFile, err)
	}
	if err := c.root.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %v", composeFile, err)
	}
	for name, s := range c.Services {
		if s == nil {
			return nil, fmt.Errorf("%s: service %s is empty", composeFile, name)
		}
		s.name = name
	}
	return &c, nil
}

// ---- what the rest of the repository says ----

type facts struct {
	globalFlags, serveFlags map[string]bool // long flag names without "--"
	envVars                 map[string]bool // [$NAME] in either help
	serveDefaults           map[string]string
	shimKeys                map[string]bool // specbridge.* properties ShimConfig reads
	shimParamPrefix         string
	shimClasses             map[string]string // fully qualified name -> source
	shimJar                 string            // java-shim/target/ARTIFACT-VERSION.jar, relative to the repo root
	registry                *speculators.Registry
	dockerfile              string
}

var (
	flagRe    = regexp.MustCompile(`(?m)^\s+--([a-z0-9][a-z0-9-]*)`)
	envRe     = regexp.MustCompile(`\[\$([A-Z0-9_]+)\]`)
	defaultRe = regexp.MustCompile(`(?m)^\s+--([a-z0-9][a-z0-9-]*) value.*\(default: "?([^")]*)"?\)`)
	shimKeyRe = regexp.MustCompile(`static final String (\w+) = PREFIX \+ "([^"]+)";`)
)

func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(binary, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("specbridge %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func loadFacts(t *testing.T) *facts {
	t.Helper()
	f := &facts{globalFlags: map[string]bool{}, serveFlags: map[string]bool{}, envVars: map[string]bool{},
		serveDefaults: map[string]string{}, shimKeys: map[string]bool{}, shimClasses: map[string]string{}}
	global, serve := helpOf(t, "--help"), helpOf(t, "serve", "--help")
	for _, m := range flagRe.FindAllStringSubmatch(global, -1) {
		f.globalFlags[m[1]] = true
	}
	for _, m := range flagRe.FindAllStringSubmatch(serve, -1) {
		f.serveFlags[m[1]] = true
	}
	for _, m := range defaultRe.FindAllStringSubmatch(serve, -1) {
		f.serveDefaults[m[1]] = m[2]
	}
	for _, m := range envRe.FindAllStringSubmatch(global+serve, -1) {
		f.envVars[m[1]] = true
	}
	if !f.serveFlags["token-file"] || !f.serveFlags["listen"] || !f.globalFlags["log-level"] {
		t.Fatalf("could not read the flags from specbridge's help:\n%s\n%s", global, serve)
	}

	src, err := os.ReadFile(shimConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `PREFIX = "specbridge."`) {
		t.Fatalf("%s: PREFIX is no longer \"specbridge.\"; update this test", shimConfigFile)
	}
	for _, m := range shimKeyRe.FindAllStringSubmatch(string(src), -1) {
		if m[1] == "PARAM_PREFIX" {
			f.shimParamPrefix = "specbridge." + m[2]
			continue
		}
		f.shimKeys["specbridge."+m[2]] = true
	}
	if f.shimParamPrefix == "" || !f.shimKeys["specbridge.url"] || !f.shimKeys["specbridge.token.file"] {
		t.Fatalf("%s: could not find the property names (found %v, param prefix %q)", shimConfigFile, f.shimKeys, f.shimParamPrefix)
	}

	err = filepath.WalkDir(shimSources, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".java") {
			return err
		}
		rel, _ := filepath.Rel(shimSources, p)
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f.shimClasses[strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".java"), "/", ".")] = string(body)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	pom, err := os.ReadFile(shimPom)
	if err != nil {
		t.Fatal(err)
	}
	var project struct {
		ArtifactID string `xml:"artifactId"`
		Version    string `xml:"version"`
	}
	if err := xml.Unmarshal(pom, &project); err != nil || project.ArtifactID == "" || project.Version == "" {
		t.Fatalf("%s: artifactId/version not found (%v)", shimPom, err)
	}
	f.shimJar = "java-shim/target/" + project.ArtifactID + "-" + project.Version + ".jar"

	f.registry = alltest.Registry(t)
	df, err := os.ReadFile(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	f.dockerfile = string(df)
	return f
}

// ---- the checks; each returns the problems it found ----

// roles finds the services by what they run.
type roles struct {
	sidecar, namenode, datanode, rm, history *service
	nodemanagers                             []*service
	hadoop                                   []*service // every service running a Hadoop daemon
}

func findRoles(c *composeSpec) (roles, []string) {
	var r roles
	var problems []string
	names := make([]string, 0, len(c.Services))
	for n := range c.Services {
		names = append(names, n)
	}
	sort.Strings(names)
	set := func(slot **service, s *service, what string) {
		if *slot != nil {
			problems = append(problems, fmt.Sprintf("two services run %s: %s and %s", what, (*slot).name, s.name))
		}
		*slot = s
	}
	for _, n := range names {
		s := c.Services[n]
		cmd := strings.Join(s.Command, " ")
		switch {
		case len(s.Command) > 0 && (s.Command[0] == "serve" || containsWord(s.Command, "serve")):
			set(&r.sidecar, s, "specbridge serve")
		case cmd == "hdfs namenode":
			set(&r.namenode, s, cmd)
		case cmd == "hdfs datanode":
			set(&r.datanode, s, cmd)
		case cmd == "yarn resourcemanager":
			set(&r.rm, s, cmd)
		case cmd == "mapred historyserver":
			set(&r.history, s, cmd)
		case cmd == "yarn nodemanager":
			r.nodemanagers = append(r.nodemanagers, s)
		}
		if strings.HasPrefix(s.Image, "apache/hadoop:") {
			r.hadoop = append(r.hadoop, s)
		}
	}
	for what, s := range map[string]*service{"specbridge serve": r.sidecar, "hdfs namenode": r.namenode,
		"hdfs datanode": r.datanode, "yarn resourcemanager": r.rm, "mapred historyserver": r.history} {
		if s == nil {
			problems = append(problems, "no service runs "+what)
		}
	}
	if len(r.nodemanagers) < 2 {
		problems = append(problems, fmt.Sprintf("%d NodeManager services, want at least 2", len(r.nodemanagers)))
	}
	hosts := map[string]string{}
	for _, nm := range r.nodemanagers {
		h := hostOf(nm)
		if other, dup := hosts[h]; dup {
			problems = append(problems, fmt.Sprintf("NodeManagers %s and %s share hostname %q: their node ids would collide", other, nm.name, h))
		}
		hosts[h] = nm.name
	}
	return r, problems
}

func containsWord(cmd []string, w string) bool {
	for _, c := range cmd {
		if c == w {
			return true
		}
	}
	return false
}

// hostOf is the name other containers reach a service by (and its NodeManager id's host).
func hostOf(s *service) string {
	if s.Hostname != "" {
		return s.Hostname
	}
	return s.name
}

// sidecarArgs splits the sidecar's command into global flags (before serve) and serve flags.
func sidecarArgs(s *service) (global, serve map[string]string, order []string) {
	global, serve = map[string]string{}, map[string]string{}
	cur := global
	for i := 0; i < len(s.Command); i++ {
		a := s.Command[i]
		if a == "serve" {
			cur = serve
			continue
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, val, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok && i+1 < len(s.Command) && !strings.HasPrefix(s.Command[i+1], "--") {
			val = s.Command[i+1]
			i++
		}
		cur[name] = val
		order = append(order, a)
	}
	return global, serve, order
}

var commentedFlagRe = regexp.MustCompile(`(?m)^\s*#\s*-\s*"?--([a-z0-9][a-z0-9-]*)`)

// checkFlags: every flag and SPECBRIDGE_* variable given to the sidecar, and every flag shown in a
// commented-out command line, exists in the CLI.
func checkFlags(c *composeSpec, raw []byte, f *facts, r roles) []string {
	var problems []string
	if r.sidecar == nil {
		return nil
	}
	global, serve, _ := sidecarArgs(r.sidecar)
	for name := range global {
		if !f.globalFlags[name] {
			problems = append(problems, fmt.Sprintf("service %s: --%s before serve is not a global flag of specbridge --help", r.sidecar.name, name))
		}
	}
	for name := range serve {
		if !f.serveFlags[name] {
			problems = append(problems, fmt.Sprintf("service %s: --%s is not a flag of specbridge serve --help", r.sidecar.name, name))
		}
	}
	if serve["token-file"] == "" {
		problems = append(problems, fmt.Sprintf("service %s: serve needs --token-file", r.sidecar.name))
	}
	for _, m := range commentedFlagRe.FindAllSubmatch(raw, -1) {
		if name := string(m[1]); !f.serveFlags[name] && !f.globalFlags[name] {
			problems = append(problems, fmt.Sprintf("%s: the commented-out flag --%s is not a flag of specbridge serve --help", composeFile, name))
		}
	}
	for k := range r.sidecar.Environment {
		if strings.HasPrefix(k, "SPECBRIDGE_") && !f.envVars[k] {
			problems = append(problems, fmt.Sprintf("service %s: environment %s is read by no specbridge flag", r.sidecar.name, k))
		}
	}
	return problems
}

var knownSiteFiles = map[string]bool{"core-site": true, "hdfs-site": true, "yarn-site": true, "mapred-site": true,
	"capacity-scheduler": true, "httpfs-site": true, "kms-site": true}

var siteKeyRe = regexp.MustCompile(`^([A-Z][A-Z-]*)\.XML_(\S+)$`)

// siteProps is a service's Hadoop configuration, file -> property -> value, as the image's
// envtoconf.py writes it.
func siteProps(s *service) (map[string]map[string]string, []string) {
	props := map[string]map[string]string{}
	var problems []string
	for k, v := range s.Environment {
		m := siteKeyRe.FindStringSubmatch(k)
		if m == nil {
			if strings.Contains(k, "-SITE") || strings.Contains(k, ".XML") {
				problems = append(problems, fmt.Sprintf("service %s: %q is not FILE.XML_property, so the image ignores it", s.name, k))
			}
			continue
		}
		file := strings.ToLower(m[1])
		if !knownSiteFiles[file] {
			problems = append(problems, fmt.Sprintf("service %s: %q writes %s.xml, which Hadoop does not read", s.name, k, file))
		}
		if strings.ContainsAny(v, "<&") {
			problems = append(problems, fmt.Sprintf("service %s: %s=%q: envtoconf.py does not escape XML, so < and & break %s.xml", s.name, k, v, file))
		}
		if props[file] == nil {
			props[file] = map[string]string{}
		}
		props[file][m[2]] = v
	}
	return props, problems
}

// checkHadoopConf: every Hadoop service has the same configuration (a job submitted from any of them
// carries the specbridge defaults), and that configuration is well formed.
func checkHadoopConf(r roles) []string {
	var problems []string
	var first map[string]map[string]string
	var firstName string
	for _, s := range r.hadoop {
		props, p := siteProps(s)
		problems = append(problems, p...)
		if first == nil {
			first, firstName = props, s.name
			continue
		}
		for file, kv := range first {
			for k, v := range kv {
				if got, ok := props[file][k]; !ok || got != v {
					problems = append(problems, fmt.Sprintf("service %s: %s %s=%q, but %s has %q: every Hadoop service should share one configuration", s.name, file, k, got, firstName, v))
				}
			}
		}
		for file, kv := range props {
			for k := range kv {
				if _, ok := first[file][k]; !ok {
					problems = append(problems, fmt.Sprintf("service %s: %s %s is set here only, not on %s", s.name, file, k, firstName))
				}
			}
		}
	}
	return problems
}

// mapred is the mapred-site configuration the jobs get (that of the first NodeManager).
func mapred(r roles) map[string]string {
	if len(r.nodemanagers) == 0 {
		return nil
	}
	props, _ := siteProps(r.nodemanagers[0])
	return props["mapred-site"]
}

// checkShim: the shim properties exist in ShimConfig, the speculator class is the shim's, the policy
// and its parameters exist, and the node naming agrees with the sidecar's.
func checkShim(f *facts, r roles) []string {
	var problems []string
	mr := mapred(r)
	if mr == nil {
		return []string{"no mapred-site configuration on the NodeManagers"}
	}
	for k, v := range mr {
		if !strings.HasPrefix(k, "specbridge.") {
			continue
		}
		if rest, ok := strings.CutPrefix(k, f.shimParamPrefix); ok {
			policy, name, ok := strings.Cut(rest, ".")
			if !ok {
				problems = append(problems, fmt.Sprintf("mapred-site %s: want %sPOLICY.NAME", k, f.shimParamPrefix))
				continue
			}
			if _, err := f.registry.Params(policy, map[string]string{name: v}); err != nil {
				problems = append(problems, fmt.Sprintf("mapred-site %s=%s: %v", k, v, err))
			}
			continue
		}
		if !f.shimKeys[k] {
			problems = append(problems, fmt.Sprintf("mapred-site %s: ShimConfig.java reads no such property", k))
		}
	}
	for _, k := range []string{"specbridge.url", "specbridge.token.file", "specbridge.speculator", speculatorClassKey} {
		if mr[k] == "" {
			problems = append(problems, fmt.Sprintf("mapred-site does not set %s", k))
		}
	}
	if cls := mr[speculatorClassKey]; cls != "" {
		src, ok := f.shimClasses[cls]
		simple := cls[strings.LastIndex(cls, ".")+1:]
		implements := regexp.MustCompile(`class\s+` + regexp.QuoteMeta(simple) + `\b[^{]*\bimplements\b[^{]*\bSpeculator\b`)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("mapred-site %s=%s: no such class in %s", speculatorClassKey, cls, shimSources))
		case !implements.MatchString(src):
			problems = append(problems, fmt.Sprintf("mapred-site %s=%s: the class does not implement Hadoop's Speculator", speculatorClassKey, cls))
		}
	}
	if p := mr["specbridge.speculator"]; p != "" {
		if _, ok := f.registry.Lookup(p); !ok {
			problems = append(problems, fmt.Sprintf("mapred-site specbridge.speculator=%s: no such policy (have %s)", p, strings.Join(f.registry.Names(), ", ")))
		}
	}
	if mr["mapreduce.map.speculative"] == "false" && mr["mapreduce.reduce.speculative"] == "false" {
		problems = append(problems, "mapred-site turns speculation off for maps and reduces: the AM would load no speculator")
	}
	if r.sidecar != nil {
		_, serve, _ := sidecarArgs(r.sidecar)
		sidecarKey, ok := serve["node-key"]
		if !ok {
			sidecarKey = f.serveDefaults["node-key"]
		}
		shimKey := mr["specbridge.node-key"]
		if shimKey == "" {
			shimKey = "host-port" // ShimConfig's default
		}
		if shimKey != sidecarKey {
			problems = append(problems, fmt.Sprintf("mapred-site specbridge.node-key=%s but the sidecar's --node-key is %s: the fault analyzer would not recognise the jobs' nodes", shimKey, sidecarKey))
		}
	}
	return problems
}

func portOf(hostport string) string {
	_, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return ""
	}
	return p
}

// checkAddresses: the AMs' specbridge.url reaches the sidecar's service on its --listen port at the
// bridge's path; the healthcheck asks the same port; --rm-url names the ResourceManager's web port.
func checkAddresses(f *facts, r roles) []string {
	if r.sidecar == nil {
		return nil
	}
	var problems []string
	_, serve, _ := sidecarArgs(r.sidecar)
	listen, ok := serve["listen"]
	if !ok {
		listen = f.serveDefaults["listen"]
	}
	port := portOf(listen)
	if port == "" || port == "0" {
		problems = append(problems, fmt.Sprintf("service %s: --listen=%q needs a fixed port", r.sidecar.name, listen))
	}
	mr := mapred(r)
	if raw := mr["specbridge.url"]; raw != "" {
		u, err := url.Parse(raw)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s: %v", raw, err))
		case u.Scheme != "ws" && u.Scheme != "wss":
			problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s: want ws:// or wss://", raw))
		default:
			if u.Scheme == "wss" && serve["tls-cert"] == "" {
				problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s is wss:// but the sidecar has no --tls-cert", raw))
			}
			if u.Scheme == "ws" && serve["tls-cert"] != "" {
				problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s is ws:// but the sidecar serves TLS", raw))
			}
			if h := u.Hostname(); h != r.sidecar.name && h != hostOf(r.sidecar) {
				problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s: host %s is not the sidecar's service %s", raw, h, r.sidecar.name))
			}
			if u.Port() != port {
				problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s: port %q, but the sidecar listens on %q", raw, u.Port(), listen))
			}
			if u.Path != bridge.Path {
				problems = append(problems, fmt.Sprintf("mapred-site specbridge.url=%s: path %q, but the sidecar serves AMs at %s", raw, u.Path, bridge.Path))
			}
		}
	}
	hc := r.sidecar.Healthcheck.Test
	if len(hc) == 0 {
		problems = append(problems, fmt.Sprintf("service %s has no healthcheck", r.sidecar.name))
	} else {
		want := "127.0.0.1:" + port + "/healthz"
		if !strings.Contains(strings.Join(hc, " "), want) {
			problems = append(problems, fmt.Sprintf("service %s: healthcheck %q does not ask %s", r.sidecar.name, hc, want))
		}
	}
	if raw, ok := serve["rm-url"]; ok && r.rm != nil {
		u, err := url.Parse(raw)
		rmProps, _ := siteProps(r.rm)
		rmPort := "8088"
		if a := rmProps["yarn-site"]["yarn.resourcemanager.webapp.address"]; a != "" {
			rmPort = portOf(a)
		}
		switch {
		case err != nil || u.Scheme != "http":
			problems = append(problems, fmt.Sprintf("service %s: --rm-url=%s: want http://resourcemanager:port", r.sidecar.name, raw))
		case u.Hostname() != r.rm.name && u.Hostname() != hostOf(r.rm):
			problems = append(problems, fmt.Sprintf("service %s: --rm-url=%s: host is not the ResourceManager's service %s", r.sidecar.name, raw, r.rm.name))
		case u.Port() != rmPort:
			problems = append(problems, fmt.Sprintf("service %s: --rm-url=%s: the ResourceManager's web port is %s", r.sidecar.name, raw, rmPort))
		}
	}
	return problems
}

// checkMounts: the token file the sidecar reads and the one every AM reads are the same file of the
// same volume, something writes it, and every NodeManager has the shim jar where the AM's classpath
// looks.
func checkMounts(c *composeSpec, f *facts, r roles) []string {
	if r.sidecar == nil {
		return nil
	}
	var problems []string
	mr := mapred(r)
	_, serve, _ := sidecarArgs(r.sidecar)
	coverOf := func(s *service, p string) (mount, bool) {
		for _, m := range s.Volumes {
			if m.covers(p) {
				return m, true
			}
		}
		return mount{}, false
	}
	sideTok, amTok := serve["token-file"], mr["specbridge.token.file"]
	sm, ok := coverOf(r.sidecar, sideTok)
	if !ok {
		problems = append(problems, fmt.Sprintf("service %s: --token-file=%s is on no mounted volume", r.sidecar.name, sideTok))
	}
	if amTok != "" {
		for _, nm := range r.nodemanagers {
			m, ok := coverOf(nm, amTok)
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("service %s: specbridge.token.file=%s is on no mounted volume, so its AMs cannot read the token", nm.name, amTok))
			case sm.Target != "" && (m.Source != sm.Source || strings.TrimPrefix(amTok, m.Target) != strings.TrimPrefix(sideTok, sm.Target)):
				problems = append(problems, fmt.Sprintf("service %s: specbridge.token.file=%s (%s) is not the sidecar's --token-file=%s (%s)", nm.name, amTok, m.Source, sideTok, sm.Source))
			}
		}
	}
	if sm.Type == "volume" {
		if _, declared := c.Volumes[sm.Source]; !declared {
			problems = append(problems, fmt.Sprintf("volume %s is not declared under volumes", sm.Source))
		}
		writer := false
		for _, s := range c.Services {
			for _, m := range s.Volumes {
				if m.Source == sm.Source && !m.ReadOnly {
					writer = true
				}
			}
		}
		if !writer {
			problems = append(problems, fmt.Sprintf("no service writes the token volume %s", sm.Source))
		}
	}

	var cp []string
	for _, e := range strings.Split(mr["mapreduce.application.classpath"], ",") {
		cp = append(cp, strings.TrimSpace(e))
	}
	for _, nm := range r.nodemanagers {
		var jar *mount
		for i, m := range nm.Volumes {
			if path.Clean(m.Source) == f.shimJar {
				jar = &nm.Volumes[i]
			}
		}
		if jar == nil {
			problems = append(problems, fmt.Sprintf("service %s mounts no ./%s (the jar `mvn -f java-shim/pom.xml package` builds)", nm.name, f.shimJar))
			continue
		}
		if !jar.Long || jar.Type != "bind" {
			problems = append(problems, fmt.Sprintf("service %s: mount the shim jar with the long syntax (type: bind), so that a missing jar is an error rather than an empty directory", nm.name))
		}
		onPath := false
		for _, e := range cp {
			if e == jar.Target || e == path.Dir(jar.Target)+"/*" {
				onPath = true
			}
		}
		if !onPath {
			problems = append(problems, fmt.Sprintf("service %s: the shim jar is mounted at %s, which mapreduce.application.classpath %q does not include", nm.name, jar.Target, mr["mapreduce.application.classpath"]))
		}
	}
	return problems
}

// checkInterpolation: docker-compose replaces $VAR and ${VAR} in values with the host's environment
// (empty when unset), which would silently change a Hadoop setting; $$ is a literal $.
func checkInterpolation(c *composeSpec) []string {
	var problems []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && strings.Contains(strings.ReplaceAll(n.Value, "$$", ""), "$") {
			problems = append(problems, fmt.Sprintf("%s line %d: %q: docker-compose would substitute the $ from the host's environment (write $$ for a literal $)", composeFile, n.Line, n.Value))
		}
		for _, ch := range n.Content {
			walk(ch)
		}
	}
	walk(&c.root)
	return problems
}

// checkDockerfile: the sidecar is built from this repository's Dockerfile, runs as non-root, and the
// Dockerfile builds the CLI.
func checkDockerfile(f *facts, r roles) []string {
	var problems []string
	if r.sidecar != nil {
		ctx := ""
		switch b := r.sidecar.Build.(type) {
		case string:
			ctx = b
		case map[string]any:
			ctx, _ = b["context"].(string)
			if d, ok := b["dockerfile"].(string); ok && d != "Dockerfile" {
				problems = append(problems, fmt.Sprintf("service %s builds from %s; this test reads Dockerfile", r.sidecar.name, d))
			}
		}
		if path.Clean(ctx) != "." {
			problems = append(problems, fmt.Sprintf("service %s: build context %q, want the repository root", r.sidecar.name, ctx))
		}
	}
	lines := strings.Split(f.dockerfile, "\n")
	stages, user := 0, ""
	for _, l := range lines {
		fields := strings.Fields(l)
		if len(fields) == 0 {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			stages++
			user = ""
		case "USER":
			if len(fields) > 1 {
				user = fields[1]
			}
		}
	}
	if stages < 2 {
		problems = append(problems, fmt.Sprintf("%s: %d stage(s), want a build stage and a runtime stage", dockerfile, stages))
	}
	if u, _, _ := strings.Cut(user, ":"); u == "" || u == "root" || u == "0" {
		problems = append(problems, fmt.Sprintf("%s: the runtime stage runs as %q, want a non-root USER", dockerfile, user))
	}
	if !strings.Contains(f.dockerfile, "./cmd/specbridge") {
		problems = append(problems, fmt.Sprintf("%s does not build ./cmd/specbridge", dockerfile))
	}
	return problems
}

func checkAll(c *composeSpec, raw []byte, f *facts) []string {
	r, problems := findRoles(c)
	problems = append(problems, checkFlags(c, raw, f, r)...)
	problems = append(problems, checkHadoopConf(r)...)
	problems = append(problems, checkShim(f, r)...)
	problems = append(problems, checkAddresses(f, r)...)
	problems = append(problems, checkMounts(c, f, r)...)
	problems = append(problems, checkInterpolation(c)...)
	problems = append(problems, checkDockerfile(f, r)...)
	sort.Strings(problems)
	return problems
}

// ---- the tests ----

func TestComposeFileAgreesWithTheRepository(t *testing.T) {
	f := loadFacts(t)
	raw, err := os.ReadFile(composeFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseCompose(raw)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := findRoles(c)
	// The checks below read these; make sure the file was understood at all.
	if r.sidecar == nil || len(r.nodemanagers) < 2 || len(r.hadoop) < 6 || mapred(r)["specbridge.url"] == "" {
		t.Fatalf("%s not understood: sidecar %v, %d NodeManagers, %d Hadoop services", composeFile, r.sidecar, len(r.nodemanagers), len(r.hadoop))
	}
	if r.namenode.Environment["ENSURE_NAMENODE_DIR"] == "" || r.namenode.Environment["CORE-SITE.XML_fs.defaultFS"] == "" {
		t.Fatalf("service %s: the YAML merge lost either the shared or its own environment: %v", r.namenode.name, r.namenode.Environment)
	}
	for _, p := range checkAll(c, raw, f) {
		t.Error(p)
	}
}

// Each mutation is a mistake that docker-compose config accepts and a job would only reveal by running
// without the sidecar; the checks must name it.
func TestComposeChecksCatchMistakes(t *testing.T) {
	f := loadFacts(t)
	good, err := os.ReadFile(composeFile)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, from, to, want string
	}{
		{"unknown serve flag", "--rm-url=", "--rm-uri=", "--rm-uri is not a flag"},
		{"commented-out flag", "# - --store=", "# - --cfa-store=", "--cfa-store"},
		{"unknown environment variable", "SPECBRIDGE_LOG_LEVEL:", "SPECBRIDGE_LOGLEVEL:", "SPECBRIDGE_LOGLEVEL"},
		{"url port", "ws://specbridge:7420/v1/am", "ws://specbridge:7421/v1/am", `port "7421"`},
		{"url host", "ws://specbridge:7420/v1/am", "ws://sidecar:7420/v1/am", "host sidecar"},
		{"url path", "ws://specbridge:7420/v1/am", "ws://specbridge:7420/am", `path "/am"`},
		{"listen port", "--listen=:7420", "--listen=:7430", `port "7420"`},
		{"shim property", "MAPRED-SITE.XML_specbridge.speculator:", "MAPRED-SITE.XML_specbridge.speculater:", "specbridge.speculater: ShimConfig.java"},
		{"policy", "specbridge.speculator: late", "specbridge.speculator: lat", "specbridge.speculator=lat: no such policy"},
		{"speculator class", "org.specbridge.shim.BridgeSpeculator", "org.specbridge.shim.BridgeSpec", "BridgeSpec: no such class"},
		{"token path", "MAPRED-SITE.XML_specbridge.token.file: /etc/specbridge/token", "MAPRED-SITE.XML_specbridge.token.file: /etc/secret/token", "/etc/secret/token is on no mounted volume"},
		{"token file name", "MAPRED-SITE.XML_specbridge.token.file: /etc/specbridge/token", "MAPRED-SITE.XML_specbridge.token.file: /etc/specbridge/tokens", "is not the sidecar's --token-file"},
		{"jar name", "specbridge-shim-0.1.0-SNAPSHOT.jar", "specbridge-shim-0.0.9.jar", "mounts no ./java-shim/target/"},
		{"classpath", ",/opt/specbridge/lib/*", ",/opt/specbridge/*", "does not include"},
		{"host interpolation", "/opt/hadoop/share/hadoop/mapreduce/*,", "$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*,", "would substitute"},
		{"site file typo", "YARN-SITE.XML_yarn.log-aggregation-enable:", "YARN-SITE.XLM_yarn.log-aggregation-enable:", "is not FILE.XML_property"},
		{"unescaped xml", "HADOOP_MAPRED_HOME=/opt/hadoop\n  MAPRED-SITE.XML_mapreduce.map.env", "HADOOP_MAPRED_HOME=/opt/hadoop&X=1\n  MAPRED-SITE.XML_mapreduce.map.env", "does not escape XML"},
		{"duplicate NodeManager host", "hostname: nodemanager2", "hostname: nodemanager1", "share hostname"},
		{"node key", "--node-key=host-port", "--node-key=host", "specbridge.node-key=host-port but the sidecar's --node-key is host"},
		{"healthcheck", "http://127.0.0.1:7420/healthz", "http://127.0.0.1:7420/health", "does not ask"},
		{"rm url", "--rm-url=http://resourcemanager:8088", "--rm-url=http://resourcemanager:8042", "web port is 8088"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(good), tc.from) {
				t.Fatalf("%s no longer contains %q; update this case", composeFile, tc.from)
			}
			bad := []byte(strings.Replace(string(good), tc.from, tc.to, 1))
			c, err := parseCompose(bad)
			if err != nil {
				t.Fatal(err)
			}
			problems := checkAll(c, bad, f)
			for _, p := range problems {
				if strings.Contains(p, tc.want) {
					t.Logf("caught: %s", p)
					return
				}
			}
			t.Errorf("replacing %q with %q: no problem mentions %q; got:\n%s", tc.from, tc.to, tc.want, strings.Join(problems, "\n"))
		})
	}

	t.Run("root sidecar", func(t *testing.T) {
		c, err := parseCompose(good)
		if err != nil {
			t.Fatal(err)
		}
		rootFacts := *f
		rootFacts.dockerfile = regexp.MustCompile(`(?m)^USER .*$`).ReplaceAllString(f.dockerfile, "USER root")
		if rootFacts.dockerfile == f.dockerfile {
			t.Fatalf("%s has no USER line; update this case", dockerfile)
		}
		problems := strings.Join(checkAll(c, good, &rootFacts), "\n")
		if !strings.Contains(problems, "want a non-root USER") {
			t.Errorf("a root USER went unnoticed:\n%s", problems)
		}
	})
}
