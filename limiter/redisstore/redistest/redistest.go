// Package redistest starts throwaway redis-server processes on loopback for
// tests and benchmarks: no persistence (an empty --save, --appendonly no), a free
// port found by listening on 127.0.0.1:0, stopped with SHUTDOWN NOSAVE.
// A missing redis-server binary is an error that says how to install it.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is one redis-server process.
type Server struct {
	Addr string // 127.0.0.1:port
	cmd  *exec.Cmd
	dir  string
	log  string
}

// Start starts a redis-server on a free loopback port with extra arguments
// (for instance "--cluster-enabled", "yes") and waits until it answers PING.
func Start(extra ...string) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("redistest: redis-server not found (%v); install it: `make deps`, or apt-get install redis-server", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), dir: dir, log: filepath.Join(dir, "log")}
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", dir, "--logfile", s.log}, extra...)
	s.cmd = exec.Command(bin, args...)
	s.cmd.SysProcAttr = procAttr()
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("redistest: start %s: %w", bin, err)
	}
	if err := s.waitPing(10 * time.Second); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("redistest: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) waitPing(limit time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(limit)
	for {
		err := c.Ping(context.Background()).Err()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redistest: redis-server at %s did not answer PING within %v: %v; log: %s", s.Addr, limit, err, s.Log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Log returns the server's log so far (for failure messages).
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.log)
	return strings.TrimSpace(string(b))
}

// Client returns a new client of the server.
func (s *Server) Client() *redis.Client { return redis.NewClient(&redis.Options{Addr: s.Addr}) }

// Stop shuts the server down without saving and removes its folder.
func (s *Server) Stop() {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	c.ShutdownNoSave(context.Background())
	c.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	os.RemoveAll(s.dir)
}

// Cluster is a Redis Cluster of masters on loopback, no replicas.
type Cluster struct {
	Servers []*Server
}

// StartCluster starts masters servers in cluster mode, joins them with
// `redis-cli --cluster create … --cluster-replicas 0 --cluster-yes`, and
// waits until every node reports cluster_state:ok.
func StartCluster(masters int) (*Cluster, error) {
	cl := &Cluster{}
	for range masters {
		s, err := Start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000")
		if err != nil {
			cl.Stop()
			return nil, err
		}
		cl.Servers = append(cl.Servers, s)
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		cl.Stop()
		return nil, fmt.Errorf("redistest: redis-cli not found (%v); it comes with redis-server: `make deps`", err)
	}
	args := append([]string{"--cluster", "create"}, cl.Addrs()...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		cl.Stop()
		return nil, fmt.Errorf("redistest: redis-cli %s: %v: %s", strings.Join(args, " "), err, out)
	}
	if err := cl.waitOK(30 * time.Second); err != nil {
		cl.Stop()
		return nil, err
	}
	return cl, nil
}

// Addrs lists the nodes' addresses.
func (cl *Cluster) Addrs() []string {
	a := make([]string, len(cl.Servers))
	for i, s := range cl.Servers {
		a[i] = s.Addr
	}
	return a
}

func (cl *Cluster) waitOK(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for _, s := range cl.Servers {
		c := redis.NewClient(&redis.Options{Addr: s.Addr})
		for {
			info, err := c.ClusterInfo(context.Background()).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				break
			}
			if time.Now().After(deadline) {
				c.Close()
				return fmt.Errorf("redistest: cluster node %s not ok within %v: %v %q", s.Addr, limit, err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
		c.Close()
	}
	return nil
}

// Client returns a new cluster client of the nodes.
func (cl *Cluster) Client() *redis.ClusterClient {
	return redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs()})
}

// Stop stops every node.
func (cl *Cluster) Stop() {
	for _, s := range cl.Servers {
		s.Stop()
	}
}
