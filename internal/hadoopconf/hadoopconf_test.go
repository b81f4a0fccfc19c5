package hadoopconf

import (
	"strings"
	"testing"
)

// Files read in turn into one Conf stack as Hadoop's resources do: a later
// property wins, in the same file or a later one, unless the earlier was
// final; Where names the file and line that set the value kept.
func TestLaterWinsUnlessFinal(t *testing.T) {
	c := New("site", Limits{})
	for _, f := range []struct{ name, xml string }{
		{"core-site.xml", `<configuration>
<property><name>a</name><value>core</value></property>
<property><name>b</name><value>core</value><final>true</final></property>
<property><name>c</name><value>first</value></property>
<property><name>c</name><value>second</value></property>
</configuration>`},
		{"yarn-site.xml", `<configuration>
<property><name>a</name><value> yarn </value></property>
<property><name>b</name><value>yarn</value></property>
</configuration>`},
	} {
		if err := c.Read(strings.NewReader(f.xml), f.name); err != nil {
			t.Fatal(err)
		}
	}
	for k, want := range map[string]string{
		"a": "yarn yarn-site.xml line 2",
		"b": "core core-site.xml line 3",
		"c": "second core-site.xml line 5",
	} {
		v, _ := c.Get(k)
		if got := v + " " + c.Where(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if err := c.Set("b", "set"); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Get("b"); v != "core" {
		t.Errorf("Set overrode a final value: b = %q", v)
	}
	if err := c.Set("d", "set"); err != nil || c.Where("d") != "site" || c.Len() != 4 {
		t.Errorf("Set d: %v, where %q, %d keys", err, c.Where("d"), c.Len())
	}
}

// Keep filters what is read from a file; MaxValue and MaxKeys bound what is
// kept, by file and line; Set is bounded alike.
func TestKeepAndBounds(t *testing.T) {
	lim := Limits{Keep: func(k string) bool { return strings.HasPrefix(k, "x.") }, MaxValue: 3, MaxKeys: 2}
	c, err := Read(strings.NewReader(`<configuration><property><name>y</name><value>long value</value></property>
<property><name>x.1</name><value>1</value></property></configuration>`), "f.xml", lim)
	if err != nil || strings.Join(c.Keys(), ",") != "x.1" {
		t.Fatalf("%v, %v; want x.1 alone", c.Keys(), err)
	}
	if err := c.Read(strings.NewReader("<configuration>\n<property><name>x.2</name><value>long</value></property></configuration>"), "g.xml"); err == nil ||
		!strings.Contains(err.Error(), "read g.xml line 2: x.2: value of 4 bytes, over 3") {
		t.Errorf("long value: %v", err)
	}
	if err := c.Set("x.2", "2"); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("x.3", "3"); err == nil || !strings.Contains(err.Error(), "f.xml: over 2 kept keys") {
		t.Errorf("third key: %v", err)
	}
	if err := c.Set("x.1", "one"); err != nil {
		t.Errorf("replacing a kept key at the bound: %v", err)
	}
}
