package redisstore_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/ratelab/ratelab/limiter/redisstore/redistest"
)

// srv is the redis-server every test but the cluster's uses, started here:
// a missing binary fails the tests, it does not skip them.
var srv *redistest.Server

func TestMain(m *testing.M) {
	s, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "redisstore tests need a redis-server:", err)
		os.Exit(1)
	}
	srv = s
	code := m.Run()
	s.Stop()
	os.Exit(code)
}
