package main

import (
	"runtime/debug"
	"testing"
)

func TestDevVersionNamesTheCommit(t *testing.T) {
	rev := "59397aa09cde1b2c3d4e5f60718293a4b5c6d7e8"
	cases := []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"no VCS information (go build -buildvcs=false, or outside a checkout)", nil, "dev"},
		{"a clean checkout", []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}, "dev+59397aa09cde"},
		{"uncommitted changes", []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}, "dev+59397aa09cde-modified"},
		{"a short revision", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}, "dev+abc"},
	}
	for _, tc := range cases {
		if got := devVersion(tc.settings); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A version set at build time (-ldflags "-X main.version=...", as the
// Dockerfile does) is reported as it is.
func TestBuildVersionKeepsAVersionSetAtBuildTime(t *testing.T) {
	saved := version
	defer func() { version = saved }()
	version = "1.2.3"
	if got := buildVersion(); got != "1.2.3" {
		t.Fatalf("buildVersion() = %q, want 1.2.3", got)
	}
}
