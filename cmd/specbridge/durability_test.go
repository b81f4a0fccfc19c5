package main

import (
	be "encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// storeFrame encodes a payload as the analyzer's store does (length,
// CRC-32C, payload): the test writes a store by hand to damage it.
func storeFrame(dst []byte, payload string) []byte {
	var h [8]byte
	be.BigEndian.PutUint32(h[:4], uint32(len(payload)))
	be.BigEndian.PutUint32(h[4:], crc32.Checksum([]byte(payload), crc32.MakeTable(crc32.Castagnoli)))
	return append(append(dst, h[:]...), payload...)
}

// fsck reports a damaged frame in the middle and a torn tail, exits 1,
// repairs with --repair, and then finds nothing; the analyzer loads every
// undamaged record (the ones after the damage too).
func TestCFAFsck(t *testing.T) {
	dir := t.TempDir()
	var seg []byte
	for i := 1; i <= 5; i++ {
		seg = storeFrame(seg, fmt.Sprintf(`{"seq":%d,"kind":"job-started","job":"job_1_000%d"}`, i, i))
	}
	second := 8 + len(`{"seq":1,"kind":"job-started","job":"job_1_0001"}`)
	seg[second+8+3] ^= 0x20 // inside the second record's payload
	seg = append(seg, 0, 0, 1)
	if err := os.WriteFile(filepath.Join(dir, "log-0000000001.cfa"), seg, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "cfa", "fsck", "--output", "json", dir)
	if code != 1 || strings.TrimSpace(out) != `{"records":4,"damaged_frames":1,"torn_bytes":3,"missing_records":0}` {
		t.Fatalf("fsck: exit %d, %q %s", code, out, errOut)
	}
	if errOut != "" { // it was a bare "specbridge: " line
		t.Errorf("fsck finding damage: stderr %q, want nothing (the report is on stdout)", errOut)
	}
	out, errOut, code = run(t, "cfa", "fsck", "--repair", dir)
	if code != 0 || !strings.Contains(out, "repaired") {
		t.Fatalf("fsck --repair: exit %d, %s %s", code, out, errOut)
	}
	out, _, code = run(t, "cfa", "fsck", "--output", "json", dir)
	if code != 0 || strings.TrimSpace(out) != `{"records":4,"damaged_frames":0,"torn_bytes":0,"missing_records":0}` {
		t.Fatalf("fsck after repair: exit %d, %q", code, out)
	}
	if _, errOut, code := run(t, "cfa", "fsck", filepath.Join(dir, "missing")); code == 0 || !strings.Contains(errOut, "missing") {
		t.Errorf("fsck of a missing store: exit %d, %s", code, errOut)
	}
}

// A second server on a data directory exits at once, naming the
// directory, the owner's pid and host; so does a second analyzer on a
// store.
func TestSecondOwnerExits(t *testing.T) {
	data := t.TempDir()
	host, _ := os.Hostname()
	owner := "pid " + strconv.Itoa(os.Getpid()) + " on host " + host
	runServeFor(t, []string{"--data-dir", data}, func(string) {
		tok := tokenFile(t, "x")
		_, errOut, code := run(t, "serve", "--listen", "127.0.0.1:0", "--token-file", tok, "--data-dir", data)
		if code == 0 || !strings.Contains(errOut, data) || !strings.Contains(errOut, owner) {
			t.Errorf("second serve on %s: exit %d, %s", data, code, errOut)
		}
		_, errOut, code = run(t, "cfa", "--listen", "127.0.0.1:0", "--token-file", tok, "--store", filepath.Join(data, "cfa"))
		if code == 0 || !strings.Contains(errOut, filepath.Join(data, "cfa")) || !strings.Contains(errOut, owner) {
			t.Errorf("cfa on serve's store: exit %d, %s", code, errOut)
		}
		_, errOut, code = run(t, "cfa", "fsck", filepath.Join(data, "cfa"))
		if code == 0 || !strings.Contains(errOut, owner) {
			t.Errorf("fsck of a store in use: exit %d, %s", code, errOut)
		}
	})
}
