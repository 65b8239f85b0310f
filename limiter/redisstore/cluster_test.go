package redisstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ratelab/ratelab/limiter/redisstore/redistest"
)

// TestCluster runs the differential test through a redis.ClusterClient on a
// three-master Redis Cluster on loopback, started here; a cluster that cannot
// start fails the test with the reason. Every key of one decision shares its
// {key} hash slot (a sliding window log's two keys), and the keys of the traces land on more than one master.
func TestCluster(t *testing.T) {
	cl, err := redistest.StartCluster(3)
	if err != nil {
		t.Fatalf("a three-master Redis Cluster on loopback could not start: %v", err)
	}
	defer cl.Stop()
	c := cl.Client()
	defer c.Close()
	differential(t, c, 4, 150)

	ctx := context.Background()
	masters := 0
	for _, s := range cl.Servers {
		n := s.Client()
		keys, err := n.Keys(ctx, "diff:*").Result()
		n.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) > 0 {
			masters++
		}
		for _, k := range keys {
			if !strings.Contains(k, "{client") {
				t.Errorf("key %q has no {client…} hash tag", k)
			}
		}
	}
	if masters < 2 {
		t.Errorf("the traces' keys are on %d of 3 masters; want them spread over at least 2", masters)
	}
}
