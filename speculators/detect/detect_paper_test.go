package detect

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// With L = 5 and base 2, the threshold is
// (2 R(n-4) + 4 R(n-3) + 8 R(n-2) + 16 R(n-1) + 32 R(n)) / (2+4+8+16+32).
// Reference: FARMS paper §3.3.1, eq. (2).
func TestTWSEquationTwo(t *testing.T) {
	d, err := New("tws", Config{Window: 5, Base: 2, Initial: 10_000, Floor: 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []speculators.Time{1000, 2000, 3000, 4000, 5000, 6000} { // the first falls out of the window
		d.Record("n1", r)
	}
	want := (2*2000 + 4*3000 + 8*4000 + 16*5000 + 32*6000) / 62.0
	if got := d.Threshold("n1"); got != speculators.Time(want+0.5) {
		t.Fatalf("threshold %d, want %.0f", got, want)
	}
	if got := d.History("n1"); len(got) != 5 || got[0] != 2000 {
		t.Fatalf("history %v, want the last five", got)
	}
}

// Earlier unresponsiveness weighs less: the same episodes in the other
// order give a threshold nearer the newest one. Reference: §3.3.1.
func TestTWSRecentEpisodesWeighMore(t *testing.T) {
	up, _ := New("tws", DefaultConfig())
	down, _ := New("tws", DefaultConfig())
	avg, _ := New("mean", DefaultConfig())
	for _, r := range []speculators.Time{5000, 10_000, 20_000, 40_000} {
		up.Record("n", r)
		avg.Record("n", r)
	}
	for _, r := range []speculators.Time{40_000, 20_000, 10_000, 5000} {
		down.Record("n", r)
	}
	if !(up.Threshold("n") > avg.Threshold("n") && avg.Threshold("n") > down.Threshold("n")) {
		t.Fatalf("rising %d, mean %d, falling %d: want rising > mean > falling", up.Threshold("n"), avg.Threshold("n"), down.Threshold("n"))
	}
}

// A higher base follows the last few episodes more closely. Reference: §3.3.1.
func TestTWSHigherBaseTracksRecent(t *testing.T) {
	b2, _ := New("tws", Config{Window: 5, Base: 2, Initial: 1, Floor: 0})
	b4, _ := New("tws", Config{Window: 5, Base: 4, Initial: 1, Floor: 0})
	for _, r := range []speculators.Time{1000, 1000, 1000, 1000, 9000} {
		b2.Record("n", r)
		b4.Record("n", r)
	}
	if !(b4.Threshold("n") > b2.Threshold("n")) {
		t.Fatalf("base 4 %d not nearer the last episode than base 2 %d", b4.Threshold("n"), b2.Threshold("n"))
	}
}

func TestInitialFloorFixedAndRestore(t *testing.T) {
	cfg := DefaultConfig()
	d, _ := New("tws", cfg)
	if d.Threshold("new") != cfg.Initial {
		t.Fatal("a node without history must get the initial threshold")
	}
	d.Record("n", 10)
	if d.Threshold("n") != cfg.Floor {
		t.Fatalf("threshold %d below the floor %d", d.Threshold("n"), cfg.Floor)
	}
	f, _ := New("fixed", cfg)
	f.Record("n", 60_000)
	if f.Threshold("n") != cfg.Initial {
		t.Fatal("fixed detector moved")
	}
	r, _ := New("tws", cfg)
	r.Restore("n", d.History("n"))
	if r.Threshold("n") != d.Threshold("n") {
		t.Fatal("restored detector differs")
	}
	for _, bad := range []Config{{Window: 0, Base: 2, Initial: 1}, {Window: 5, Base: 0, Initial: 1}, {Window: 5, Base: 2}} {
		if _, err := New("tws", bad); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
	if _, err := New("oracle", cfg); err == nil {
		t.Error("unknown detector accepted")
	}
}
