//go:build integration

package replay

import (
	"bytes"
	"testing"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// `replay hdfs:///specbridge/...` on the Kerberos-secured mini HDFS
// (scripts/hdfs-kerberos-test.sh), with a keytab and with a ticket cache:
// the input has the local copy's jobs and every policy's simulation gives
// byte-identical output. Without credentials, the replay is refused with
// an error naming the input.
func TestKerberosReplay(t *testing.T) {
	u := itest.FreshDir(t, "SPECBRIDGE_KRB_FS", "/specbridge", "replay").Join("done")
	root := u.Path
	local, _ := stageHistories(t, itest.DialDir(t, itest.KerberosConf(t, itest.Keytab), u), root)
	itest.EachCredentials(t, func(t *testing.T, creds itest.Credentials, cfg *hdfs.Config) {
		fromHDFS, err := Load("hdfs://"+root+"/", LoadOptions{HDFS: cfg}) // hdfs:///specbridge/...: on fs.defaultFS
		if err != nil {
			t.Fatalf("replay hdfs://%s with a %s: %v", root, creds, err)
		}
		fromLocal, err := Load(local, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(fromHDFS.Jobs) != len(haHistories) {
			t.Fatalf("%d jobs from HDFS, want %d", len(fromHDFS.Jobs), len(haHistories))
		}
		if a, b := replayOutput(t, fromHDFS), replayOutput(t, fromLocal); !bytes.Equal(a, b) {
			t.Fatalf("replay from the secured HDFS differs from the local replay:\n%s\n---\n%s", a, b)
		}
	})
	t.Run("no credentials", func(t *testing.T) {
		cfg := itest.KerberosConf(t, itest.NoCredentials)
		in := u.String() + "/"
		_, err := Load(in, LoadOptions{HDFS: cfg})
		itest.WantRefused(t, err, in)
	})
}
