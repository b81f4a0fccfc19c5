package speculators

import "testing"

// A Why formats to what fmt.Sprintf of its format and arguments gives, with
// integers for I and floats for F, and only when read; Reason, when set,
// wins.
func TestWhyFormatsLazily(t *testing.T) {
	d := Decision{Kind: Speculate, Task: TaskID{Type: Map, Index: 7}, Copies: 2,
		Why: Because("x: %d copies of a %d-task job, t_rem %.1fs > %.3f").I(3).I(12).F(17.25).F(1.70711)}
	if got, want := d.ReasonText(), "x: 3 copies of a 12-task job, t_rem 17.2s > 1.707"; got != want {
		t.Errorf("ReasonText %q, want %q", got, want)
	}
	if got, want := d.String(), "speculate m_000007 x2: x: 3 copies of a 12-task job, t_rem 17.2s > 1.707"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	big := Because("%d %.0f %d %d %d").I(1 << 40).F(2).I(-3).I(4).I(5)
	if got, want := big.String(), "1099511627776 2 -3 4 %!d(MISSING)"; got != want {
		t.Errorf("five arguments: %q, want %q (the fifth is dropped)", got, want)
	}
	d.Reason = "set"
	if d.ReasonText() != "set" {
		t.Errorf("Reason set: ReasonText %q", d.ReasonText())
	}
	if got := (Decision{}).ReasonText(); got != "" {
		t.Errorf("no reason: %q", got)
	}
}
