package main

import (
	"os"
	"strings"

	"github.com/sirupsen/logrus"
)

// warnReadable warns when the secret file of flag can be read by every
// user of the machine (the "other" read bit), as ssh does for a private
// key; it is a warning, not an error, since a container's mounted secret
// may have any mode and the operator may know better.
func warnReadable(log *logrus.Logger, flag, file string) {
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm()&0o004 == 0 {
		return
	}
	log.WithFields(logrus.Fields{"file": file, "mode": st.Mode().Perm().String()}).
		Warnf("%s: %s is readable by every user of this machine; chmod 600 it", flag, file)
}

// dashboardURL is the dashboard's address beside the websocket's base URL
// (ws://host:port or wss://): the same host and port over http(s), at /.
func dashboardURL(base string) string {
	if rest, ok := strings.CutPrefix(base, "ws"); ok {
		return "http" + rest + "/"
	}
	return base + "/"
}

// dashboardAt is dashboardURL, or "off" under --dashboard=false.
func dashboardAt(c interface{ Bool(string) bool }, base string) string {
	if !c.Bool("dashboard") {
		return "off"
	}
	return dashboardURL(base)
}
