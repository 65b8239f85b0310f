package limiter_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// reservers returns a token bucket, a GCRA and a leaky bucket that make the
// same decisions: rate 2 per second (leak interval 500 ms), size 2.
func reservers(t *testing.T) []limiter.Reserver {
	tb, err1 := limiter.NewTokenBucket(2, 2)
	g, err2 := limiter.NewGCRA(2, 2)
	lb, err3 := limiter.NewLeakyBucket(2, 500*time.Millisecond)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return []limiter.Reserver{tb, g, lb}
}

func TestReserveQueues(t *testing.T) {
	for _, s := range reservers(t) {
		var delays []time.Duration
		for _, n := range []int{2, 1, 2} {
			r, err := s.Reserve(0, n)
			if err != nil {
				t.Fatal(err)
			}
			delays = append(delays, r.Delay())
		}
		d, _ := s.AllowN(time.Second, 1)
		want := []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond}
		if !reflect.DeepEqual(delays, want) || d.Allowed || d.RetryAfter != time.Second || d.Remaining != 0 {
			t.Errorf("%s: delays %v, then at 1 s %+v; want %v, then denied with retry-after 1s", s.Kind(), delays, d, want)
		}
	}
}

// Cancel gives back exactly what the reservation took: the bucket is then
// in the state of one where it was never made, at rate 3 per second too,
// whose emission interval is not a whole number of nanoseconds.
func TestCancelIsExact(t *testing.T) {
	for _, rate := range []float64{2, 3, 1.0 / 7} {
		for _, kind := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA} {
			c := limiter.Config{Kind: kind, Rate: rate, Burst: 2}
			s, _ := limiter.New(c)
			ref, _ := limiter.New(c)
			s.(limiter.Reserver).Reserve(0, 2)
			ref.(limiter.Reserver).Reserve(0, 2)
			r, _ := s.(limiter.Reserver).Reserve(100*time.Millisecond, 1)
			if !r.Cancel(200 * time.Millisecond) {
				t.Fatalf("%s at %g: Cancel before its time refused", kind, rate)
			}
			if r.Cancel(200 * time.Millisecond) {
				t.Errorf("%s at %g: a second Cancel gave back again", kind, rate)
			}
			for _, at := range []time.Duration{200 * time.Millisecond, 300 * time.Millisecond, 20 * time.Second} {
				if got, want := s.State(at), ref.State(at); !reflect.DeepEqual(got, want) {
					t.Errorf("%s at %g: state at %v after Cancel %+v, never reserved %+v", kind, rate, at, got, want)
				}
			}
			got, _ := s.(limiter.Reserver).Reserve(300*time.Millisecond, 2)
			want, _ := ref.(limiter.Reserver).Reserve(300*time.Millisecond, 2)
			if got.Delay() != want.Delay() {
				t.Errorf("%s at %g: next delay %v, never reserved %v", kind, rate, got.Delay(), want.Delay())
			}
		}
	}
}

func TestCancelAfterItsTime(t *testing.T) {
	tb, _ := limiter.NewTokenBucket(2, 2)
	ref, _ := limiter.NewTokenBucket(2, 2)
	for _, b := range []*limiter.TokenBucket{tb, ref} {
		b.Reserve(0, 2)
	}
	r, _ := tb.Reserve(0, 1) // proceeds at 500 ms
	ref.Reserve(0, 1)
	at := 500*time.Millisecond + 1
	if r.Cancel(at) || !reflect.DeepEqual(tb.State(at), ref.State(at)) {
		t.Errorf("Cancel after its time gave back: %+v, want %+v", tb.State(at), ref.State(at))
	}
	r, _ = tb.Reserve(time.Second, 2) // 1 token at 1 s: proceeds at 1.5 s
	if r.Delay() != 500*time.Millisecond || !r.Cancel(1500*time.Millisecond) || tb.State(1500*time.Millisecond).Tokens != 2 {
		t.Errorf("delay %v, Cancel at its instant: tokens %v; want 500ms, 2", r.Delay(), tb.State(1500*time.Millisecond).Tokens)
	}
	zero, _ := tb.Reserve(2*time.Second, 0)
	if zero.Delay() != 0 || zero.Cancel(2*time.Second) {
		t.Errorf("a reservation of 0: delay %v, cancelled; want 0, nothing to give back", zero.Delay())
	}
}

func TestReserveErrors(t *testing.T) {
	tb, _ := limiter.NewTokenBucket(2, 2)
	lb, _ := limiter.NewLeakyBucket(2, time.Second)
	zero, _ := limiter.NewTokenBucket(0, 2)
	zero.AllowN(0, 1)
	for _, tc := range []struct {
		s    limiter.Reserver
		n    int
		want string
	}{
		{tb, -1, "limiter: n -1 is negative; want >= 0"},
		{tb, 3, "limiter: n 3 is above the burst 2, so no wait would do; want n <= 2"},
		{lb, 3, "limiter: n 3 is above the capacity 2, so no wait would do; want n <= 2"},
		{zero, 2, "limiter: n 2 is above the 1 units left at rate 0, which never refills; want n <= 1"},
	} {
		r, err := tc.s.Reserve(time.Second, tc.n)
		if r != nil || err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("%s Reserve(%d): %v, %v; want %q", tc.s.Kind(), tc.n, r, err, tc.want)
		}
	}
	if st := tb.State(time.Second); st.Tokens != 2 {
		t.Errorf("a refused reservation spent: tokens %v, want 2", st.Tokens)
	}
	fw, _ := limiter.NewFixedWindow(1, time.Second)
	_, err := limiter.NewWaiter(fw, limiter.WaiterOptions{})
	want := "limiter: a fixed window cannot reserve (a window strategy's wait is not a promise: requests admitted meanwhile take the room); want a token bucket, GCRA or leaky bucket"
	if err == nil || err.Error() != want || !errors.Is(err, limiter.ErrNotReservable) || !errors.Is(err, limiter.ErrInvalid) {
		t.Errorf("NewWaiter(fixed window): %v, want %q wrapping ErrNotReservable and ErrInvalid", err, want)
	}
}

// fakeTimer fires at once after moving the clock by d, recording d.
func fakeTimer(clock *limiter.ManualClock, waits *[]time.Duration) func(time.Duration) (<-chan time.Time, func() bool) {
	return func(d time.Duration) (<-chan time.Time, func() bool) {
		*waits = append(*waits, d)
		clock.Advance(d)
		c := make(chan time.Time, 1)
		c <- time.Time{}
		return c, func() bool { return false }
	}
}

func TestWait(t *testing.T) {
	clock := &limiter.ManualClock{}
	var waits []time.Duration
	tb, _ := limiter.NewTokenBucket(2, 2)
	w, err := limiter.NewWaiter(tb, limiter.WaiterOptions{Clock: clock, Timer: fakeTimer(clock, &waits)})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 1, 2, 1} {
		if err := w.Wait(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 500 * time.Millisecond}
	if !reflect.DeepEqual(waits, want) || clock.Now() != 2*time.Second {
		t.Errorf("waits %v ending at %v, want %v ending at 2s", waits, clock.Now(), want)
	}
}

// A wait that would pass the deadline returns at once, and spends nothing.
func TestWaitPastDeadline(t *testing.T) {
	clock := &limiter.ManualClock{}
	var waits []time.Duration
	tb, _ := limiter.NewTokenBucket(1.0/3600, 1) // one per hour
	w, _ := limiter.NewWaiter(tb, limiter.WaiterOptions{Clock: clock, Timer: fakeTimer(clock, &waits)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if err := w.Wait(ctx, 1); err != nil {
		t.Fatal(err)
	}
	err := w.Wait(ctx, 1)
	want := "limiter: a wait of 1h0m0s for 1 would pass the context's deadline: context deadline exceeded"
	if err == nil || err.Error() != want || !errors.Is(err, context.DeadlineExceeded) || len(waits) != 0 {
		t.Errorf("Wait past the deadline: %v after waits %v; want %q at once", err, waits, want)
	}
	if d, _ := tb.AllowN(clock.Now(), 0); d.ResetAfter != time.Hour {
		t.Errorf("after the refused wait the bucket is full in %v, want 1h (nothing reserved)", d.ResetAfter)
	}
	if err := w.Wait(ctx, 2); err == nil || err.Error() != "limiter: n 2 is above the burst 1, so no wait would do; want n <= 1" {
		t.Errorf("Wait(2): %v", err)
	}
}

// A context cancelled while waiting gives the units back.
func TestWaitCancelled(t *testing.T) {
	clock := &limiter.ManualClock{}
	tb, _ := limiter.NewTokenBucket(2, 2)
	ctx, cancel := context.WithCancel(context.Background())
	var stopped bool
	w, _ := limiter.NewWaiter(tb, limiter.WaiterOptions{Clock: clock, Timer: func(d time.Duration) (<-chan time.Time, func() bool) {
		clock.Advance(d / 2)
		cancel()
		return nil, func() bool { stopped = true; return true }
	}})
	w.Wait(ctx, 2)
	err := w.Wait(ctx, 2) // waits 1 s; cancelled at 500 ms
	if !errors.Is(err, context.Canceled) || !stopped || clock.Now() != 500*time.Millisecond {
		t.Fatalf("Wait: %v, stopped=%v at %v; want context.Canceled, stopped at 500ms", err, stopped, clock.Now())
	}
	if st := tb.State(clock.Now()); st.Tokens != 1 {
		t.Errorf("tokens after the cancelled wait %v, want 1 (the 2 reserved given back)", st.Tokens)
	}
	if err := w.Wait(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait on a done context: %v, want context.Canceled", err)
	}
}

// A cancel noticed once the reservation's time has come cannot give the
// units back (the caller may have proceeded; Cancel refuses): the wait then
// succeeded, and Wait returns nil rather than ctx's error with the units
// spent. Both the timer and ctx.Done are ready here, so the select may take
// either; every run must give nil and the units spent.
func TestWaitCancelledAfterItsTime(t *testing.T) {
	for i := range 200 {
		clock := &limiter.ManualClock{}
		tb, _ := limiter.NewTokenBucket(10, 1)
		ctx, cancel := context.WithCancel(context.Background())
		w, _ := limiter.NewWaiter(tb, limiter.WaiterOptions{Clock: clock, Timer: func(d time.Duration) (<-chan time.Time, func() bool) {
			clock.Advance(d + 50*time.Millisecond)
			cancel()
			c := make(chan time.Time, 1)
			c <- time.Time{}
			return c, func() bool { return false }
		}})
		if err := w.Wait(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if err := w.Wait(ctx, 1); err != nil { // waits 100 ms; cancelled at 150 ms
			t.Fatalf("run %d: Wait = %v, want nil (its time had come: the unit is spent)", i, err)
		}
		if st := tb.State(clock.Now()); st.Tokens != 0.5 {
			t.Fatalf("run %d: %v tokens at %v, want 0.5 (both units spent)", i, st.Tokens, clock.Now())
		}
	}
}
