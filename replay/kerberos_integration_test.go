//go:build integration

package replay

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// `replay hdfs:///specbridge/...` on the Kerberos-secured mini HDFS
// (scripts/hdfs-kerberos-test.sh), with a keytab and with a ticket cache:
// the input has the local copy's jobs and every policy's simulation gives
// byte-identical output. Without credentials, the replay is refused with
// an error naming the input.
func TestKerberosReplay(t *testing.T) {
	root := fmt.Sprintf("/specbridge/replay-%d/done", time.Now().UnixNano())
	if err := hdfs.UseConf(itest.Kerberos(t, itest.Keytab)); err != nil {
		t.Fatal(err)
	}
	c, err := hdfs.Dial(strings.TrimPrefix(itest.Env(t, "SPECBRIDGE_KRB_FS"), "hdfs://"))
	if err != nil {
		t.Fatal(err)
	}
	local, _ := stageHistories(t, c, root)
	c.Close()
	for _, creds := range []itest.Credentials{itest.Keytab, itest.TicketCache} {
		t.Run(string(creds), func(t *testing.T) {
			if err := hdfs.UseConf(itest.Kerberos(t, creds)); err != nil {
				t.Fatal(err)
			}
			fromHDFS, err := Load("hdfs://"+root+"/", "", history.DefaultSWIMModel()) // hdfs:///specbridge/...: on fs.defaultFS
			if err != nil {
				t.Fatalf("replay hdfs://%s with a %s: %v", root, creds, err)
			}
			fromLocal, err := Load(local, "", history.DefaultSWIMModel())
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
	}
	t.Run("no credentials", func(t *testing.T) {
		if err := hdfs.UseConf(itest.Kerberos(t, itest.NoCredentials)); err != nil {
			t.Fatal(err)
		}
		in := itest.Env(t, "SPECBRIDGE_KRB_FS") + root + "/"
		_, err := Load(in, "", history.DefaultSWIMModel())
		if err == nil {
			t.Fatal("replay without credentials succeeded")
		}
		for _, want := range []string{in, "Kerberos", "no keytab"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
	})
}
