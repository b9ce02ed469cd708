package benchreport

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Statistics of the overhead report. Times of a loaded machine are skewed
// by the slow samples, so everything is medians: a median with its
// distribution-free confidence interval, differences and slopes of medians
// with bootstrap intervals (fixed seed: the same input gives the same report).

// median of xs (NaN for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianCI is the distribution-free interval of the median from order
// statistics: [x(k), x(n+1-k)] with the largest k whose coverage
// 1 - 2 P(Binomial(n, 1/2) < k) is still at least conf. ok is false when n
// is too small for conf (n < 6 for 95 %).
func medianCI(xs []float64, conf float64) (lo, hi, coverage float64, ok bool) {
	n := len(xs)
	if n == 0 {
		return 0, 0, 0, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	tail := 0.0 // P(B <= k-1)
	best := -1
	cov := 0.0
	for k := 1; k <= n/2; k++ {
		tail += binom(n, k-1) / math.Pow(2, float64(n))
		if c := 1 - 2*tail; c >= conf {
			best, cov = k, c
		} else {
			break
		}
	}
	if best < 1 {
		return s[0], s[n-1], 0, false
	}
	return s[best-1], s[n-best], cov, true
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

const resamples = 4000

// resample draws len(xs) values of xs with replacement.
func resample(r *rand.Rand, xs, into []float64) []float64 {
	into = into[:0]
	for range xs {
		into = append(into, xs[r.IntN(len(xs))])
	}
	return into
}

// diffCI is median(b) - median(a) with a 95 % bootstrap interval.
func diffCI(a, b []float64) (d, lo, hi float64, ok bool) {
	d = median(b) - median(a)
	if len(a) < 2 || len(b) < 2 {
		return d, 0, 0, false
	}
	r := rand.New(rand.NewPCG(1, 2))
	ds := make([]float64, resamples)
	var ra, rb []float64
	for i := range ds {
		ra, rb = resample(r, a, ra), resample(r, b, rb)
		ds[i] = median(rb) - median(ra)
	}
	lo, hi = percentiles(ds)
	return d, lo, hi, true
}

// slope of the medians of ys[i] against xs[i] by least squares, with a 95 %
// bootstrap interval (samples resampled within each x).
func slopeCI(xs []float64, ys [][]float64) (s, lo, hi float64, ok bool) {
	meds := make([]float64, len(ys))
	for i, y := range ys {
		meds[i] = median(y)
	}
	s = leastSquares(xs, meds)
	enough := len(xs) >= 2
	for _, y := range ys {
		enough = enough && len(y) >= 2
	}
	if !enough {
		return s, 0, 0, false
	}
	r := rand.New(rand.NewPCG(3, 4))
	ss := make([]float64, resamples)
	var buf []float64
	for i := range ss {
		for j, y := range ys {
			buf = resample(r, y, buf)
			meds[j] = median(buf)
		}
		ss[i] = leastSquares(xs, meds)
	}
	lo, hi = percentiles(ss)
	return s, lo, hi, true
}

// leastSquares is the slope of the least-squares line through (xs, ys).
func leastSquares(xs, ys []float64) float64 {
	n := float64(len(xs))
	if n < 2 {
		return math.NaN()
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / den
}

// percentiles are the 2.5th and 97.5th percentiles of xs.
func percentiles(xs []float64) (lo, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	at := func(p float64) float64 {
		i := p * float64(len(s)-1)
		f := math.Floor(i)
		if int(f)+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[int(f)] + (i-f)*(s[int(f)+1]-s[int(f)])
	}
	return at(0.025), at(0.975)
}
