package limiter

// BucketUnits is the exact integer arithmetic of a token bucket, GCRA or
// leaky bucket, for stores that keep a bucket's state outside this package
// (limiter/redisstore). A bucket's state is its debt, how far it is from
// full: one token (one unit of water) is Unit of debt, and each nanosecond
// pays back PerNs of it. For a rate of p/q tokens per second Unit is q·1e9
// and PerNs is p; for a leaky bucket Unit is the leak interval in
// nanoseconds and PerNs is 1.
type BucketUnits struct {
	PerNs int64 // debt paid back per nanosecond; 0 for rate 0
	Unit  int64 // debt of one token
	Burst int64 // bucket size in tokens: burst or capacity
	Inf   bool  // rate +Inf: everything is allowed
}

// BucketUnits returns the exact arithmetic of c's bucket, or the error its
// constructor returns for a parameter out of range, or an error wrapping
// ErrInvalid when c's Kind is not a token bucket, GCRA or leaky bucket or
// when c's bucket takes the 128-bit arithmetic (Burst × Unit above 2⁶¹: a
// rate below 1e-9 per second, or a bucket that refills or drains in over
// 73 years), which these 64-bit fields cannot hold; that error names the
// largest burst or capacity they hold at c's rate or leak interval.
func (c Config) BucketUnits() (BucketUnits, error) {
	var m *bucketMath
	var err error
	switch c.Kind {
	case KindTokenBucket, KindGCRA:
		m, err = newBucketMath(c.Rate, c.Burst)
	case KindLeakyBucket:
		m, err = leakyMath(c.Capacity, c.LeakInterval)
	default:
		return BucketUnits{}, errorf("kind %q has no bucket; want %s, %s or %s", string(c.Kind), KindTokenBucket, KindGCRA, KindLeakyBucket)
	}
	if err != nil {
		return BucketUnits{}, err
	}
	if m.wide != nil {
		return BucketUnits{}, wideUnitsError(c)
	}
	return BucketUnits{PerNs: m.perNs, Unit: m.unit, Burst: m.burst, Inf: m.inf}, nil
}

// wideUnitsError is BucketUnits' error for a bucket on the 128-bit
// arithmetic.
func wideUnitsError(c Config) error {
	const why = "beyond the 64-bit arithmetic of BucketUnits (burst × unit <= 2^61)"
	if c.Kind == KindLeakyBucket {
		return errorf("capacity %d × leak interval %v is over 2^61 ns, %s; want capacity <= %d at this leak interval",
			c.Capacity, c.LeakInterval, why, maxUnits/int64(c.LeakInterval))
	}
	if most := maxNarrowBurst(c.Rate); most > 0 {
		return errorf("burst %d at rate %g is %s; want burst <= %d at this rate", c.Burst, c.Rate, why, most)
	}
	return errorf("rate %g is below 1e-9, %s; want 0 or tokens per second in [1e-9, 1e12] or +Inf", c.Rate, why)
}

// maxNarrowBurst returns the largest burst the 64-bit arithmetic holds at
// rate (see fraction), 0 for a rate below 1e-9 per second.
func maxNarrowBurst(rate float64) int64 {
	most := int64(0)
	for _, tol := range []float64{1e-12, 1e-9} {
		if p, q := rational(rate, tol, 1e9); p > 0 {
			most = max(most, maxUnits/(q*1e9/gcd(p, q*1e9)))
		}
	}
	return most
}
