//go:build integration

package cfa

import (
	"testing"

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
	itest.EachCredentials(t, func(t *testing.T, _ itest.Credentials, hc *hdfs.Config) {
		store := itest.FreshDir(t, "SPECBRIDGE_KRB_FS", "/specbridge", "cfa").String()
		third, _ := crashAndRestart(t, store, hc, 60, 4)
		if err := third.Close(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("no credentials", func(t *testing.T) {
		hc := itest.KerberosConf(t, itest.NoCredentials)
		store := itest.Env(t, "SPECBRIDGE_KRB_FS") + "/specbridge/cfa-refused"
		_, err := NewService(ServiceConfig{Analyzer: testConfig(), Store: store, HDFS: hc})
		itest.WantRefused(t, err, store)
	})
}
