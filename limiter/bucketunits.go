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
// ErrInvalid when c's Kind is not a token bucket, GCRA or leaky bucket.
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
	return BucketUnits{PerNs: m.perNs, Unit: m.unit, Burst: m.burst, Inf: m.inf}, nil
}
