// Package deploy holds no code: its tests check the repository's docker-compose.yml and Dockerfile
// against the rest of the repository (the specbridge CLI's flags, the Java shim's property names and
// class, the sidecar's address, the token and shim jar mounts), since no Docker engine runs them here
// and a mismatch would only show when a user's job silently ran without the sidecar.
package deploy
