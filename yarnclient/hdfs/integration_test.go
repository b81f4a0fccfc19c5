//go:build integration

package hdfs_test

import (
	"bytes"
	"testing"

	"github.com/specbridge/specbridge/internal/itest"
)

func TestIntegrationWriteRenameAppendList(t *testing.T) {
	c, dir := itest.MiniHDFS(t, "hdfs")
	p := dir + "/a.txt"
	if err := c.WriteFile(p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteFile(p, []byte("second")); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadFile(p)
	if err != nil || string(got) != "second" {
		t.Fatalf("after atomic overwrite: %q, %v", got, err)
	}
	for i := range 3 {
		if err := c.Append(dir+"/log", []byte{byte('a' + i)}); err != nil {
			t.Fatal(err)
		}
	}
	got, err = c.ReadFile(dir + "/log")
	if err != nil || !bytes.Equal(got, []byte("abc")) {
		t.Fatalf("appended: %q, %v", got, err)
	}
	ents, err := c.List(dir)
	if err != nil || len(ents) != 2 || ents[0].Name != "a.txt" || ents[0].Size != 6 || ents[1].Name != "log" {
		t.Fatalf("list: %+v, %v", ents, err)
	}
	files, err := c.Walk(dir, ".txt")
	if err != nil || len(files) != 1 || files[0] != p {
		t.Fatalf("walk: %v, %v", files, err)
	}
	if err := c.Remove(p); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Exists(p); ok || err != nil {
		t.Fatalf("exists after remove: %v, %v", ok, err)
	}
	if _, err := c.ReadFile(dir + "/missing"); err == nil || !bytes.Contains([]byte(err.Error()), []byte("hdfs://")) {
		t.Errorf("missing file error should name the URL: %v", err)
	}
}
