package history

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// confXML is a conf.xml as Hadoop 3's Configuration.writeXml writes a job's
// configuration: one <property> per line with <source> elements.
const confXML = `<?xml version="1.0" encoding="UTF-8" standalone="no"?><configuration>
<property><name>mapreduce.job.name</name><value>sleep</value><final>false</final><source>programmatically</source></property>
<property><name>mapreduce.map.maxattempts</name><value>1</value><final>false</final><source>programmatically</source><source>job.xml</source></property>
<property><name>mapreduce.task.timeout</name><value> 5000 </value><final>true</final><source>mapred-default.xml</source></property>
<property><name>mapreduce.task.timeout</name><value>9000</value></property>
<property><name>mapreduce.map.speculative</name><value>true</value></property>
<property><name>mapreduce.map.speculative</name><value>false</value></property>
<property><name>specbridge.speculator</name><value>late</value></property>
</configuration>
`

func TestReadConfKeepsReplayKeysFinalAndLines(t *testing.T) {
	c, err := ReadConf(strings.NewReader(confXML), "job_1_0001_conf.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"mapreduce.map.maxattempts": "1",
		"mapreduce.task.timeout":    "5000",  // final: the later 9000 is ignored, as Hadoop's Configuration does
		"mapreduce.map.speculative": "false", // not final: the later wins
		"specbridge.speculator":     "late",
	}
	if got := c.Keys(); len(got) != len(want) {
		t.Fatalf("kept %v, want the keys of %v (mapreduce.job.name is not read)", got, want)
	}
	for k, v := range want {
		if got, ok := c.Get(k); !ok || got != v {
			t.Errorf("%s = %q, %v; want %q", k, got, ok, v)
		}
	}
	if w := c.Where("mapreduce.map.maxattempts"); w != "job_1_0001_conf.xml line 3" {
		t.Errorf("Where = %q, want the file and the property's line", w)
	}
}

func TestReadConfRefusesHostileInput(t *testing.T) {
	long := strings.Repeat("x", MaxConfValue+1)
	var many strings.Builder
	many.WriteString("<configuration>\n")
	for i := 0; i <= maxConfKept; i++ {
		fmt.Fprintf(&many, "<property><name>specbridge.k%d</name><value>1</value></property>\n", i)
	}
	many.WriteString("</configuration>\n")
	for _, tc := range []struct{ name, in, want string }{
		{"not xml", "<configuration><property>", "c.xml line 1"},
		{"wrong root", "<?xml version=\"1.0\"?>\n<props/>", "c.xml line 2: root element <props>"},
		{"no root", "", "no <configuration>"},
		{"no name", "<configuration>\n\n<property><value>1</value></property></configuration>", "c.xml line 3: property without a name"},
		{"long value", "<configuration>\n<property><name>mapreduce.map.maxattempts</name><value>" + long + "</value></property></configuration>", "c.xml line 2: mapreduce.map.maxattempts: value of 4097 bytes"},
		{"bad final", "<configuration>\n<property><name>mapreduce.map.maxattempts</name><value>1</value><final>yes</final></property></configuration>", "line 2: mapreduce.map.maxattempts: <final>\"yes\"</final>"},
		{"too many keys", many.String(), "over 1024 kept keys"},
		{"entity", "<!DOCTYPE c [<!ENTITY e \"x\">]><configuration><property><name>a</name><value>&e;</value></property></configuration>", "c.xml line 1"},
	} {
		_, err := ReadConf(strings.NewReader(tc.in), "c.xml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestReadConfRefusesOverSize(t *testing.T) {
	pad := strings.Repeat("<!-- padding padding padding -->", MaxConfBytes/32+1)
	_, err := ReadConf(strings.NewReader("<configuration>"+pad+"</configuration>"), "big.xml")
	if err == nil || !strings.Contains(err.Error(), "big.xml: configuration over") {
		t.Fatalf("err = %v, want the size limit named", err)
	}
}

func TestRumenJobPropertiesKept(t *testing.T) {
	props := map[string]json.RawMessage{
		"mapreduce.job.name":                           json.RawMessage(`"TeraGen"`),
		"mapreduce.reduce.speculative":                 json.RawMessage(`false`),
		"mapreduce.job.reduce.slowstart.completedmaps": json.RawMessage(`"0.8"`),
		"mapreduce.map.maxattempts":                    json.RawMessage(`2`),
		"specbridge.late.threshold":                    json.RawMessage(`{"a":1}`), // not a scalar: skipped
	}
	c, err := rumenConf(props, "t.json")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"mapreduce.reduce.speculative": "false", "mapreduce.job.reduce.slowstart.completedmaps": "0.8", "mapreduce.map.maxattempts": "2"} {
		if got, _ := c.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if len(c.Keys()) != 3 || c.Source != "t.json jobProperties" {
		t.Errorf("kept %v from %q", c.Keys(), c.Source)
	}
	if c, err := rumenConf(map[string]json.RawMessage{"mapreduce.job.name": json.RawMessage(`"x"`)}, "t.json"); c != nil || err != nil {
		t.Errorf("no kept key: %v, %v; want nil, nil", c, err)
	}
}
