package scenario

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Dist is a probability distribution of a non-negative quantity.
//
//	constant:    value
//	uniform:     min, max
//	exponential: mean
//	normal:      mean, sigma (draws below 0 are clamped to 0)
//	lognormal:   mu, sigma (of the log), or median and sigma
//	pareto:      scale (x_m, the minimum) and shape (alpha, the tail index)
//	empirical:   values (drawn uniformly)
//	sum:         n draws of `of`, added (LATE §5.4's 100 sleeps)
//	poisson:     mean (lambda; whole numbers, FARMS §4.4's delays)
type Dist struct {
	Kind   string    `yaml:"dist"`
	Value  float64   `yaml:"value"`
	Min    float64   `yaml:"min"`
	Max    float64   `yaml:"max"`
	Mean   float64   `yaml:"mean"`
	Median float64   `yaml:"median"`
	Mu     float64   `yaml:"mu"`
	Sigma  float64   `yaml:"sigma"`
	Scale  float64   `yaml:"scale"`
	Shape  float64   `yaml:"shape"`
	Values []float64 `yaml:"values"`
	N      int       `yaml:"n"`
	Of     *Dist     `yaml:"of"`
	Line   int       `yaml:"-"`
}

// Constant returns the distribution that always gives v.
func Constant(v float64) *Dist { return &Dist{Kind: "constant", Value: v} }

// validate checks the parameters and names the problem.
func (d *Dist) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("line %d: %s distribution: %s", d.Line, d.Kind, fmt.Sprintf(format, args...))
	}
	// Every quantity the format draws (seconds, factors, counts,
	// fractions) is far below maxSeconds; a larger parameter is a typo,
	// and would overflow the simulator's times.
	for _, v := range append([]float64{d.Value, d.Min, d.Max, d.Mean, d.Median, d.Scale}, d.Values...) {
		if v > maxSeconds {
			return bad("%g is over %g", v, float64(maxSeconds))
		}
	}
	switch d.Kind {
	case "constant":
		if d.Value < 0 {
			return bad("value %g is negative", d.Value)
		}
	case "uniform":
		if d.Min < 0 || d.Max < d.Min {
			return bad("need 0 <= min <= max, got min %g max %g", d.Min, d.Max)
		}
	case "exponential", "poisson":
		if d.Mean <= 0 {
			return bad("mean must be > 0, got %g", d.Mean)
		}
	case "normal":
		if d.Mean < 0 || d.Sigma < 0 {
			return bad("need mean >= 0 and sigma >= 0")
		}
	case "lognormal":
		if d.Sigma <= 0 {
			return bad("sigma must be > 0, got %g", d.Sigma)
		}
		if d.Median < 0 {
			return bad("median must be > 0, got %g", d.Median)
		}
	case "pareto":
		if d.Scale <= 0 || d.Shape <= 0 {
			return bad("scale and shape must be > 0, got %g and %g", d.Scale, d.Shape)
		}
	case "empirical":
		if len(d.Values) == 0 {
			return bad("values is empty")
		}
		for _, v := range d.Values {
			if v < 0 || math.IsNaN(v) {
				return bad("value %g is negative", v)
			}
		}
	case "sum":
		if d.N <= 0 || d.N > maxSumTerms || d.Of == nil {
			return bad("need 0 < n <= %d and of", maxSumTerms)
		}
		if d.Of.Kind == "sum" {
			return bad("a sum of sums is not supported")
		}
		return d.Of.validate()
	case "":
		return fmt.Errorf("line %d: distribution has no dist: (constant, uniform, exponential, normal, lognormal, pareto, empirical, sum, poisson)", d.Line)
	default:
		return fmt.Errorf("line %d: unknown distribution %q", d.Line, d.Kind)
	}
	return nil
}

// Sample draws one value using r.
func (d *Dist) Sample(r *rand.Rand) float64 {
	switch d.Kind {
	case "constant":
		return d.Value
	case "uniform":
		return distuv.Uniform{Min: d.Min, Max: d.Max, Src: r}.Rand()
	case "exponential":
		return distuv.Exponential{Rate: 1 / d.Mean, Src: r}.Rand()
	case "poisson":
		return distuv.Poisson{Lambda: d.Mean, Src: r}.Rand()
	case "normal":
		return math.Max(0, distuv.Normal{Mu: d.Mean, Sigma: d.Sigma, Src: r}.Rand())
	case "lognormal":
		mu := d.Mu
		if d.Median > 0 {
			mu = math.Log(d.Median)
		}
		return distuv.LogNormal{Mu: mu, Sigma: d.Sigma, Src: r}.Rand()
	case "pareto":
		return distuv.Pareto{Xm: d.Scale, Alpha: d.Shape, Src: r}.Rand()
	case "empirical":
		return d.Values[r.IntN(len(d.Values))]
	case "sum":
		s := 0.0
		for i := 0; i < d.N; i++ {
			s += d.Of.Sample(r)
		}
		return s
	}
	return 0
}

// MeanValue is the distribution's expected value (+Inf for a Pareto with
// shape <= 1).
func (d *Dist) MeanValue() float64 {
	switch d.Kind {
	case "constant":
		return d.Value
	case "uniform":
		return (d.Min + d.Max) / 2
	case "exponential", "normal", "poisson":
		return d.Mean
	case "lognormal":
		mu := d.Mu
		if d.Median > 0 {
			mu = math.Log(d.Median)
		}
		return math.Exp(mu + d.Sigma*d.Sigma/2)
	case "pareto":
		if d.Shape <= 1 {
			return math.Inf(1)
		}
		return d.Shape * d.Scale / (d.Shape - 1)
	case "empirical":
		s := 0.0
		for _, v := range d.Values {
			s += v
		}
		return s / float64(len(d.Values))
	case "sum":
		return float64(d.N) * d.Of.MeanValue()
	}
	return 0
}
