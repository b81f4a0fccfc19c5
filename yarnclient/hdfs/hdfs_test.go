package hdfs

import "testing"

func TestParseURL(t *testing.T) {
	u, err := ParseURL("hdfs://nn.example:8020/tmp/history/done/")
	if err != nil || u.NameNode != "nn.example:8020" || u.Path != "/tmp/history/done" {
		t.Fatalf("got %+v, %v", u, err)
	}
	if got := u.Join("x.jhist").String(); got != "hdfs://nn.example:8020/tmp/history/done/x.jhist" {
		t.Errorf("join: %s", got)
	}
	root, err := ParseURL("hdfs://nn:9000")
	if err != nil || root.Path != "/" {
		t.Errorf("root: %+v, %v", root, err)
	}
	for _, bad := range []string{"hdfs:///tmp", "hdfs://nn/tmp", "http://nn:1/x", "/tmp/x"} {
		if _, err := ParseURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if !IsURL("hdfs://a:1/") || IsURL("/tmp") {
		t.Error("IsURL")
	}
}

func TestUserFromEnv(t *testing.T) {
	t.Setenv("HADOOP_USER_NAME", "alice")
	if u, err := User(); err != nil || u != "alice" {
		t.Errorf("User() = %q, %v", u, err)
	}
}
