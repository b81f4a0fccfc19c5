// Package deploy holds no code: its tests check the repository's deployment files against the rest of
// the repository. docker-compose.yml and the Dockerfile are checked against the specbridge CLI's flags,
// the Java shim's property names and class, the sidecar's address, and the token and shim jar mounts,
// since no Docker engine runs them here and a mismatch would only show when a user's job silently ran
// without the sidecar. The systemd unit (systemd/specbridge.service and its environment file) is read
// by systemd-analyze and its command line is run the way systemd would run it.
package deploy
