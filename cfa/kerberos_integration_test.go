//go:build integration

package cfa

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// The analyzer's store on the Kerberos-secured mini HDFS
// (scripts/hdfs-kerberos-test.sh), with a keytab and with a ticket cache:
// the scenario runs, the process crashes, a new one finds every
// acknowledged record and finishes, and the store reloads whole (the
// crash-restart check of the plain HDFS test). Without credentials the
// analyzer does not start, and says which store and why.
func TestKerberosStore(t *testing.T) {
	fsURL := itest.Env(t, "SPECBRIDGE_KRB_FS")
	for _, creds := range []itest.Credentials{itest.Keytab, itest.TicketCache} {
		t.Run(string(creds), func(t *testing.T) {
			if err := hdfs.UseConf(itest.Kerberos(t, creds)); err != nil {
				t.Fatal(err)
			}
			store := fmt.Sprintf("%s/specbridge/cfa-%d", fsURL, time.Now().UnixNano())
			third, _ := crashAndRestart(t, store, 60, 4)
			if err := third.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("no credentials", func(t *testing.T) {
		if err := hdfs.UseConf(itest.Kerberos(t, itest.NoCredentials)); err != nil {
			t.Fatal(err)
		}
		store := fsURL + "/specbridge/cfa-refused"
		_, err := NewService(ServiceConfig{Analyzer: testConfig(), Store: store})
		if err == nil {
			t.Fatal("the analyzer opened a Kerberos store without credentials")
		}
		for _, want := range []string{store, "Kerberos", "no keytab"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
	})
}
