package lasertrain

import (
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/speculators/laser"
	"gonum.org/v1/gonum/stat"
)

// fitConfig sets one network's training.
type fitConfig struct {
	Hidden []int
	// Offset, when not 0, is 1 + the index of the input the net learns a
	// correction to (laser.Net.OffsetInput): the target is log y minus it.
	Offset int
	Epochs int
	Batch  int
	Rate   float64
	Seed   uint64
}

// fitResult is a trained network and its validation error.
type fitResult struct {
	Net            laser.Net
	L1S, MeanTrueS float64 // mean absolute validation error and mean true value, seconds
	TrainRows      int
	ValidRows      int
}

// fit trains a PReLU network on rows x (inputs) and y (seconds, > 0) with
// the paper's L1 loss ("least absolute deviations", §VI-B) on log seconds,
// by mini-batch Adam, holding out a fifth of the rows (a seeded shuffle)
// for validation and keeping the parameters of the epoch with the lowest
// validation loss.
//
// Choices: the target is log seconds because task times are heavy-tailed
// (Pareto, beta = 1.7): an L1 fit of log time is a fit of the conditional
// median, which outliers do not drag. Inputs and the target are
// standardised. Everything runs in one goroutine in a fixed order, so a seed
// gives the same network bit for bit; products that are summed are wrapped
// in float64() so that no architecture fuses them into FMA instructions
// (the Go spec's explicit rounding), which keeps the bits the same on arm64
// as on amd64.
func fit(x [][]float64, y []float64, cfg fitConfig) fitResult {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x1a5e4))
	n := len(x)
	order := rng.Perm(n)
	nValid := n / 5
	valid, train := order[:nValid], order[nValid:]
	in := len(x[0])
	net := laser.Net{LogTarget: true, OffsetInput: cfg.Offset, InMean: make([]float64, in), InStd: make([]float64, in)}
	col := make([]float64, len(train))
	for k := 0; k < in; k++ {
		for i, r := range train {
			col[i] = x[r][k]
		}
		m, s := stat.MeanStdDev(col, nil)
		if !(s > 1e-9) {
			s = 1
		}
		net.InMean[k], net.InStd[k] = m, s
	}
	// The range of every input over all rows, training and validation:
	// the policy feeds the net nothing outside it (laser.Net.OutOfRange).
	net.InMin, net.InMax = make([]float64, in), make([]float64, in)
	for k := 0; k < in; k++ {
		net.InMin[k], net.InMax[k] = math.Inf(1), math.Inf(-1)
		for _, row := range x {
			net.InMin[k], net.InMax[k] = math.Min(net.InMin[k], row[k]), math.Max(net.InMax[k], row[k])
		}
	}
	logs := make([]float64, n)
	for i := range y {
		logs[i] = math.Log(math.Max(y[i], 1e-3))
		if cfg.Offset > 0 {
			logs[i] -= x[i][cfg.Offset-1]
		}
	}
	for i, r := range train {
		col[i] = logs[r]
	}
	net.OutMean, net.OutStd = stat.MeanStdDev(col, nil)
	if !(net.OutStd > 1e-9) {
		net.OutStd = 1
	}
	sizes := append(append([]int{in}, cfg.Hidden...), 1)
	for l := 0; l+1 < len(sizes); l++ {
		layer := laser.Layer{In: sizes[l], Out: sizes[l+1], W: make([]float64, sizes[l]*sizes[l+1]), B: make([]float64, sizes[l+1])}
		bound := math.Sqrt(6 / float64(sizes[l]))
		for i := range layer.W {
			layer.W[i] = float64(2*rng.Float64()-1) * bound
		}
		if l+2 < len(sizes) {
			layer.Alpha = make([]float64, sizes[l+1])
			for i := range layer.Alpha {
				layer.Alpha[i] = 0.25
			}
		}
		net.Layers = append(net.Layers, layer)
	}
	t := newTrainer(&net)
	z := func(r int) ([]float64, float64) {
		xs := t.xbuf
		for k, v := range x[r] {
			xs[k] = (v - net.InMean[k]) / net.InStd[k]
		}
		return xs, (logs[r] - net.OutMean) / net.OutStd
	}
	validLoss := func() float64 {
		s := 0.0
		for _, r := range valid {
			xs, target := z(r)
			s += math.Abs(t.forward(xs) - target)
		}
		return s / float64(max(len(valid), 1))
	}
	best := cloneNet(&net)
	bestLoss := validLoss()
	for epoch := 0; epoch < cfg.Epochs; epoch++ {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		for b := 0; b < len(train); b += cfg.Batch {
			end := min(b+cfg.Batch, len(train))
			t.zeroGrad()
			for _, r := range train[b:end] {
				xs, target := z(r)
				out := t.forward(xs)
				g := 1.0
				if out < target {
					g = -1
				} else if out == target {
					g = 0
				}
				t.backward(g / float64(end-b))
			}
			t.adam(cfg.Rate)
		}
		if l := validLoss(); l < bestLoss {
			bestLoss = l
			best = cloneNet(&net)
		}
	}
	res := fitResult{Net: best, TrainRows: len(train), ValidRows: len(valid)}
	var buf []float64
	for _, r := range valid {
		var p float64
		p, buf = best.Predict(x[r], buf)
		res.L1S += math.Abs(p - y[r])
		res.MeanTrueS += y[r]
	}
	if len(valid) > 0 {
		res.L1S /= float64(len(valid))
		res.MeanTrueS /= float64(len(valid))
	}
	return res
}

func cloneNet(n *laser.Net) laser.Net {
	c := *n
	c.InMean = append([]float64(nil), n.InMean...)
	c.InStd = append([]float64(nil), n.InStd...)
	c.InMin = append([]float64(nil), n.InMin...)
	c.InMax = append([]float64(nil), n.InMax...)
	c.Layers = make([]laser.Layer, len(n.Layers))
	for i, l := range n.Layers {
		c.Layers[i] = laser.Layer{In: l.In, Out: l.Out, W: append([]float64(nil), l.W...), B: append([]float64(nil), l.B...)}
		if l.Alpha != nil {
			c.Layers[i].Alpha = append([]float64(nil), l.Alpha...)
		}
	}
	return c
}

// trainer holds activations, gradients and Adam moments of one network.
type trainer struct {
	net  *laser.Net
	xbuf []float64
	// per layer: input (post-activation of the previous), pre-activation
	acts, pre  [][]float64
	gW, gB, gA [][]float64
	mW, vW     [][]float64
	mB, vB     [][]float64
	mA, vA     [][]float64
	delta      [][]float64
	step       int
}

func newTrainer(n *laser.Net) *trainer {
	t := &trainer{net: n, xbuf: make([]float64, n.Layers[0].In)}
	for _, l := range n.Layers {
		t.acts = append(t.acts, make([]float64, l.In))
		t.pre = append(t.pre, make([]float64, l.Out))
		t.delta = append(t.delta, make([]float64, l.Out))
		for _, p := range []*[][]float64{&t.gW, &t.mW, &t.vW} {
			*p = append(*p, make([]float64, len(l.W)))
		}
		for _, p := range []*[][]float64{&t.gB, &t.mB, &t.vB} {
			*p = append(*p, make([]float64, len(l.B)))
		}
		for _, p := range []*[][]float64{&t.gA, &t.mA, &t.vA} {
			*p = append(*p, make([]float64, len(l.Alpha)))
		}
	}
	return t
}

// forward computes the standardised output for standardised inputs xs.
func (t *trainer) forward(xs []float64) float64 {
	copy(t.acts[0], xs)
	for li, l := range t.net.Layers {
		in := t.acts[li]
		for o := 0; o < l.Out; o++ {
			s := l.B[o]
			row := l.W[o*l.In : (o+1)*l.In]
			for i, w := range row {
				s += float64(w * in[i])
			}
			t.pre[li][o] = s
			if li+1 < len(t.net.Layers) {
				a := s
				if s < 0 {
					a = l.Alpha[o] * s
				}
				t.acts[li+1][o] = a
			}
		}
	}
	return t.pre[len(t.net.Layers)-1][0]
}

// backward accumulates the gradients of the last forward pass scaled by g
// (dLoss/dOutput).
func (t *trainer) backward(g float64) {
	last := len(t.net.Layers) - 1
	t.delta[last][0] = g
	for li := last; li >= 0; li-- {
		l := t.net.Layers[li]
		in := t.acts[li]
		d := t.delta[li]
		for o := 0; o < l.Out; o++ {
			if d[o] == 0 {
				continue
			}
			t.gB[li][o] += d[o]
			gw := t.gW[li][o*l.In : (o+1)*l.In]
			for i := range gw {
				gw[i] += float64(d[o] * in[i])
			}
		}
		if li == 0 {
			break
		}
		prev := t.net.Layers[li-1]
		pd := t.delta[li-1]
		for i := 0; i < l.In; i++ {
			s := 0.0
			for o := 0; o < l.Out; o++ {
				s += float64(d[o] * l.W[o*l.In+i])
			}
			z := t.pre[li-1][i]
			if z < 0 {
				t.gA[li-1][i] += float64(s * z)
				s *= prev.Alpha[i]
			}
			pd[i] = s
		}
	}
}

func (t *trainer) zeroGrad() {
	for li := range t.net.Layers {
		clear(t.gW[li])
		clear(t.gB[li])
		clear(t.gA[li])
	}
}

// adam applies one Adam step (beta1 0.9, beta2 0.999).
func (t *trainer) adam(rate float64) {
	t.step++
	c1 := 1 - math.Pow(0.9, float64(t.step))
	c2 := 1 - math.Pow(0.999, float64(t.step))
	upd := func(p, g, m, v []float64) {
		for i := range p {
			m[i] = float64(0.9*m[i]) + float64(0.1*g[i])
			v[i] = float64(0.999*v[i]) + float64(0.001*g[i]*g[i])
			p[i] -= float64(rate*(m[i]/c1)) / (math.Sqrt(v[i]/c2) + 1e-8)
		}
	}
	for li := range t.net.Layers {
		l := &t.net.Layers[li]
		upd(l.W, t.gW[li], t.mW[li], t.vW[li])
		upd(l.B, t.gB[li], t.mB[li], t.vB[li])
		upd(l.Alpha, t.gA[li], t.mA[li], t.vA[li])
	}
}
