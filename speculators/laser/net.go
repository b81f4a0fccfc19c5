package laser

import (
	"fmt"
	"math"
)

// Net is a fully connected network y_l = f(W_l x_l + b_l) (the paper's
// eq. (1)) with parametric ReLU activations (one slope per hidden unit, as
// PReLU learns them) and a linear output unit. Inputs are standardised with
// InMean/InStd; the output is de-standardised with OutMean/OutStd and, with
// LogTarget, exponentiated (the network predicts log seconds).
type Net struct {
	Layers []Layer   `json:"layers"`
	InMean []float64 `json:"in_mean"`
	InStd  []float64 `json:"in_std"`
	// InMin and InMax are the least and greatest value of each input in
	// the rows the net was trained on: a policy never feeds the net a value
	// outside them (OutOfRange), since a network's output there is an
	// extrapolation nothing checked.
	InMin     []float64 `json:"in_min"`
	InMax     []float64 `json:"in_max"`
	OutMean   float64   `json:"out_mean"`
	OutStd    float64   `json:"out_std"`
	LogTarget bool      `json:"log_target"`
	// OffsetInput, when not 0, is 1 + the index of an input that is added
	// to the output before it is exponentiated: the net then learns a
	// correction to that input (the task net: log T = linear_estimate_log +
	// correction), and where its other inputs tell it nothing it stays near
	// the input rather than near the training set's mean.
	OffsetInput int `json:"offset_input,omitempty"`
}

// Layer is one layer: W is Out x In, row-major; Alpha holds the PReLU
// slopes of a hidden layer (nil on the output layer).
type Layer struct {
	In    int       `json:"in"`
	Out   int       `json:"out"`
	W     []float64 `json:"w"`
	B     []float64 `json:"b"`
	Alpha []float64 `json:"alpha,omitempty"`
}

// Inputs is the number of inputs the net takes.
func (n *Net) Inputs() int {
	if len(n.Layers) == 0 {
		return 0
	}
	return n.Layers[0].In
}

// validate checks the shapes.
func (n *Net) validate(inputs int) error {
	if len(n.Layers) == 0 {
		return fmt.Errorf("no layers")
	}
	if n.Layers[0].In != inputs || len(n.InMean) != inputs || len(n.InStd) != inputs {
		return fmt.Errorf("takes %d inputs (normalisation %d/%d), want %d", n.Layers[0].In, len(n.InMean), len(n.InStd), inputs)
	}
	for i, l := range n.Layers {
		if l.In <= 0 || l.Out <= 0 || len(l.W) != l.In*l.Out || len(l.B) != l.Out {
			return fmt.Errorf("layer %d: %dx%d with %d weights and %d biases", i, l.Out, l.In, len(l.W), len(l.B))
		}
		if i > 0 && l.In != n.Layers[i-1].Out {
			return fmt.Errorf("layer %d takes %d inputs, layer %d gives %d", i, l.In, i-1, n.Layers[i-1].Out)
		}
		last := i == len(n.Layers)-1
		if last && (l.Out != 1 || l.Alpha != nil) {
			return fmt.Errorf("output layer must be one linear unit")
		}
		if !last && len(l.Alpha) != l.Out {
			return fmt.Errorf("layer %d: %d PReLU slopes for %d units", i, len(l.Alpha), l.Out)
		}
		for _, v := range append(append(append([]float64(nil), l.W...), l.B...), l.Alpha...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("layer %d: a parameter is not finite", i)
			}
		}
	}
	for i, s := range n.InStd {
		if !(s > 0) {
			return fmt.Errorf("input %d: standard deviation %g is not positive", i, s)
		}
	}
	if len(n.InMin) != inputs || len(n.InMax) != inputs {
		return fmt.Errorf("training ranges of %d/%d inputs, want %d (retrain with this build's specbridge train laser)", len(n.InMin), len(n.InMax), inputs)
	}
	for i := range n.InMin {
		if math.IsNaN(n.InMin[i]) || math.IsNaN(n.InMax[i]) || n.InMin[i] > n.InMax[i] {
			return fmt.Errorf("input %d: training range [%g, %g] is empty", i, n.InMin[i], n.InMax[i])
		}
	}
	if n.OffsetInput < 0 || n.OffsetInput > inputs {
		return fmt.Errorf("offset input %d: want 0 (none) or 1..%d", n.OffsetInput, inputs)
	}
	if !(n.OutStd > 0) {
		return fmt.Errorf("output standard deviation %g is not positive", n.OutStd)
	}
	return nil
}

// OutOfRange returns the index of the first input of x outside the range
// the net was trained on, or -1 when every input is within it (or x is not
// as long as the net's inputs, which validate excludes).
func (n *Net) OutOfRange(x []float64) int {
	if len(x) != len(n.InMin) || len(x) != len(n.InMax) {
		return 0
	}
	for i, v := range x {
		if !(v >= n.InMin[i] && v <= n.InMax[i]) {
			return i
		}
	}
	return -1
}

// Predict evaluates the net on raw inputs x; buf is scratch space (may be
// nil) and is returned for reuse.
func (n *Net) Predict(x []float64, buf []float64) (float64, []float64) {
	width := len(x)
	for _, l := range n.Layers {
		width = max(width, l.Out)
	}
	if cap(buf) < 2*width {
		buf = make([]float64, 2*width)
	}
	cur, next := buf[:width], buf[width:2*width]
	for i, v := range x {
		cur[i] = (v - n.InMean[i]) / n.InStd[i]
	}
	for _, l := range n.Layers {
		for o := 0; o < l.Out; o++ {
			s := l.B[o]
			row := l.W[o*l.In : (o+1)*l.In]
			for i, w := range row {
				s += float64(w * cur[i]) // no FMA: the same bits on every architecture
			}
			if l.Alpha != nil && s < 0 {
				s *= l.Alpha[o]
			}
			next[o] = s
		}
		cur, next = next, cur
	}
	y := float64(cur[0]*n.OutStd) + n.OutMean
	if n.OffsetInput > 0 {
		y += x[n.OffsetInput-1]
	}
	if n.LogTarget {
		y = math.Exp(math.Min(y, 30))
	}
	return y, buf
}
