// lockscope-go-anchor: etcd 3.4's own Go lock code (clientv3/concurrency's Mutex and Election,
// contrib/recipes' RWMutex) in one process, as the reference LockScope's tests and benchmark
// compare with. Built offline in GOPATH mode from Debian's golang-etcd-server-dev
// (cmake/GoAnchor.cmake).
//
// Usage: lockscope-go-anchor --endpoints HOST:PORT[,...] COMMAND ARGS
//
// Every command first prints "session <lease id in hex>" once its session (TTL 10 s) is open.
// Lines it prints, one per event, fields separated by single spaces:
//
//	mutex NAME       concurrency.Mutex: "held <key> <create revision>" once it holds NAME
//	rlock NAME       the RWMutex recipe's RLock on prefix NAME: "held <key> <create revision>"
//	wlock NAME       the RWMutex recipe's Lock on prefix NAME: "held <key> <create revision>"
//	                 Each holds until SIGINT or SIGTERM, then unlocks, prints "released" and
//	                 exits 0. A signal while it still waits revokes the session (so its key
//	                 goes) and exits 0 without "released".
//	mutexes NAME... concurrency.Mutexes on the names in turn, all on one session (as one Go
//	                 client holding one lock while it waits for the next): "held <key> <create
//	                 revision>" once it holds each; before each further name it waits for a
//	                 line "next" on stdin. Holds them all until SIGINT or SIGTERM, then unlocks
//	                 them, prints "released" and exits 0; a signal while it waits revokes the
//	                 session and exits 0.
//	campaign NAME PROPOSAL
//	                 Election.Campaign: "leader <key> <create revision>" once it leads. Then
//	                 reads commands from stdin, one a line: "proclaim VALUE" (prints
//	                 "proclaimed VALUE"), "resign" (prints "resigned" and exits 0). SIGINT or
//	                 SIGTERM resigns too (or, still campaigning, revokes the session); the end
//	                 of stdin changes nothing.
//	observe NAME     Election.Observe: "observed <key> <value>" for each leader it sees, until
//	                 SIGINT or SIGTERM.
//	handoff NAME [--waiters N] [--rounds R] [--settle MS]
//	                 N+1 concurrency.Mutexes on NAME, one session each, in this process: one
//	                 holds, N queue in a known order; after MS ms (default 150: Go's waiter
//	                 watches its predecessor from an old revision, and etcd's 100 ms catch-up
//	                 pass must have made that watch current) each holder in turn unlocks. A
//	                 sample is one handoff: from the holder's Unlock call to the next waiter's
//	                 Lock returning. Prints "handoff {"samples_ms":[...]}" (R samples, as
//	                 JSON) and exits 0.
//
// Any failure prints "error: <what>" and exits 1.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
	recipe "go.etcd.io/etcd/contrib/recipes"
)

const sessionTTL = 10

func fail(format string, args ...interface{}) {
	fmt.Printf("error: "+format+"\n", args...)
	os.Exit(1)
}

func usage() {
	fail("usage: lockscope-go-anchor --endpoints HOST:PORT[,...] " +
		"mutex|mutexes|rlock|wlock|campaign|observe|handoff NAME [ARGS]")
}

func openSession(client *clientv3.Client) *concurrency.Session {
	s, err := concurrency.NewSession(client, concurrency.WithTTL(sessionTTL))
	if err != nil {
		fail("no session: %v", err)
	}
	return s
}

// The key our session's lease holds under prefix (the RWMutex recipe keeps its key private).
func ownKey(client *clientv3.Client, s *concurrency.Session, prefix string) (string, int64) {
	resp, err := client.Get(context.Background(), prefix, clientv3.WithPrefix())
	if err != nil {
		fail("reading %s: %v", prefix, err)
	}
	for _, kv := range resp.Kvs {
		if clientv3.LeaseID(kv.Lease) == s.Lease() {
			return string(kv.Key), kv.CreateRevision
		}
	}
	fail("no key of lease %x under %s", int64(s.Lease()), prefix)
	return "", 0
}

func stopSignals() chan os.Signal {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGINT, syscall.SIGTERM)
	return c
}

// Runs acquire in the background; a signal before it returns revokes the session and exits.
func acquireOrStop(s *concurrency.Session, stop chan os.Signal, acquire func() error) {
	done := make(chan error, 1)
	go func() { done <- acquire() }()
	select {
	case err := <-done:
		if err != nil {
			fail("%v", err)
		}
	case <-stop:
		s.Close()
		os.Exit(0)
	}
}

func hold(client *clientv3.Client, command, name string) {
	s := openSession(client)
	fmt.Printf("session %x\n", int64(s.Lease()))
	stop := stopSignals()
	var unlock func() error
	switch command {
	case "mutex":
		m := concurrency.NewMutex(s, name)
		acquireOrStop(s, stop, func() error { return m.Lock(context.Background()) })
		unlock = func() error { return m.Unlock(context.Background()) }
	case "rlock":
		rw := recipe.NewRWMutex(s, name)
		acquireOrStop(s, stop, rw.RLock)
		unlock = rw.RUnlock
	case "wlock":
		rw := recipe.NewRWMutex(s, name)
		acquireOrStop(s, stop, rw.Lock)
		unlock = rw.Unlock
	}
	key, rev := ownKey(client, s, name+"/")
	fmt.Printf("held %s %d\n", key, rev)
	<-stop
	if err := unlock(); err != nil {
		fail("unlock: %v", err)
	}
	fmt.Println("released")
	s.Close()
}

func holdInTurn(client *clientv3.Client, names []string) {
	s := openSession(client)
	fmt.Printf("session %x\n", int64(s.Lease()))
	stop := stopSignals()
	next := make(chan struct{})
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			if in.Text() == "next" {
				next <- struct{}{}
			}
		}
	}()
	var held []*concurrency.Mutex
	for i, name := range names {
		if i > 0 {
			select {
			case <-next:
			case <-stop:
				s.Close()
				os.Exit(0)
			}
		}
		m := concurrency.NewMutex(s, name)
		acquireOrStop(s, stop, func() error { return m.Lock(context.Background()) })
		held = append(held, m)
		key, rev := ownKey(client, s, name+"/")
		fmt.Printf("held %s %d\n", key, rev)
	}
	<-stop
	for _, m := range held {
		if err := m.Unlock(context.Background()); err != nil {
			fail("unlock: %v", err)
		}
	}
	fmt.Println("released")
	s.Close()
}

func campaign(client *clientv3.Client, name, proposal string) {
	s := openSession(client)
	fmt.Printf("session %x\n", int64(s.Lease()))
	stop := stopSignals()
	e := concurrency.NewElection(s, name)
	acquireOrStop(s, stop, func() error { return e.Campaign(context.Background(), proposal) })
	fmt.Printf("leader %s %d\n", e.Key(), e.Rev())
	commands := make(chan string)
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			commands <- in.Text()
		}
	}()
	for {
		select {
		case <-stop:
			e.Resign(context.Background())
			s.Close()
			return
		case line := <-commands:
			switch {
			case strings.HasPrefix(line, "proclaim "):
				value := strings.TrimPrefix(line, "proclaim ")
				if err := e.Proclaim(context.Background(), value); err != nil {
					fail("proclaim: %v", err)
				}
				fmt.Printf("proclaimed %s\n", value)
			case line == "resign":
				if err := e.Resign(context.Background()); err != nil {
					fail("resign: %v", err)
				}
				fmt.Println("resigned")
				s.Close()
				return
			default:
				fmt.Printf("error: unknown command %q (proclaim VALUE, resign)\n", line)
			}
		}
	}
}

func observe(client *clientv3.Client, name string) {
	s := openSession(client)
	fmt.Printf("session %x\n", int64(s.Lease()))
	stop := stopSignals()
	ctx, cancel := context.WithCancel(context.Background())
	leaders := concurrency.NewElection(s, name).Observe(ctx)
	for {
		select {
		case <-stop:
			cancel()
			s.Close()
			return
		case resp, ok := <-leaders:
			if !ok {
				fail("observing %s ended", name)
			}
			kv := resp.Kvs[0]
			fmt.Printf("observed %s %s\n", kv.Key, kv.Value)
		}
	}
}

func handoff(client *clientv3.Client, name string, args []string) {
	flags := flag.NewFlagSet("handoff", flag.ExitOnError)
	waiters := flags.Int("waiters", 1, "contenders queued behind the holder")
	rounds := flags.Int("rounds", 100, "handoffs to measure")
	settle := flags.Int("settle", 150, "ms the queue settles before the first handoff of a round")
	flags.Parse(args)
	if *waiters < 1 || *rounds < 1 {
		fail("--waiters and --rounds must be at least 1")
	}
	ctx := context.Background()
	mutexes := make([]*concurrency.Mutex, *waiters+1)
	for i := range mutexes {
		s := openSession(client)
		defer s.Close()
		mutexes[i] = concurrency.NewMutex(s, name)
	}
	queued := func(n int) {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			resp, err := client.Get(ctx, name+"/", clientv3.WithPrefix(), clientv3.WithCountOnly())
			if err == nil && resp.Count == int64(n) {
				return
			}
			if time.Now().After(deadline) {
				fail("no %d keys queued on %s", n, name)
			}
		}
	}
	samples := []float64{}
	for len(samples) < *rounds {
		if err := mutexes[0].Lock(ctx); err != nil {
			fail("lock: %v", err)
		}
		acquired := make([]chan time.Time, *waiters+1)
		for i := 1; i <= *waiters; i++ {
			acquired[i] = make(chan time.Time, 1)
			go func(i int) {
				if err := mutexes[i].Lock(ctx); err != nil {
					fail("lock: %v", err)
				}
				acquired[i] <- time.Now()
			}(i)
			queued(i + 1) // queue in a known order
		}
		time.Sleep(time.Duration(*settle) * time.Millisecond)
		for i := 0; i < *waiters; i++ {
			start := time.Now()
			if err := mutexes[i].Unlock(ctx); err != nil {
				fail("unlock: %v", err)
			}
			at := <-acquired[i+1]
			samples = append(samples, float64(at.Sub(start).Microseconds())/1000)
		}
		if err := mutexes[*waiters].Unlock(ctx); err != nil {
			fail("unlock: %v", err)
		}
	}
	out, _ := json.Marshal(map[string][]float64{"samples_ms": samples[:*rounds]})
	fmt.Printf("handoff %s\n", out)
}

func main() {
	endpoints := flag.String("endpoints", "127.0.0.1:2379", "comma-separated etcd endpoints")
	flag.Parse()
	args := flag.Args()
	if len(args) < 2 {
		usage()
	}
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   strings.Split(*endpoints, ","),
		DialTimeout: 5 * time.Second,
	})
	if err != nil {
		fail("cannot connect to %s: %v", *endpoints, err)
	}
	defer client.Close()
	command, name := args[0], args[1]
	switch command {
	case "mutex", "rlock", "wlock":
		hold(client, command, name)
	case "mutexes":
		holdInTurn(client, args[1:])
	case "campaign":
		if len(args) != 3 {
			usage()
		}
		campaign(client, name, args[2])
	case "observe":
		observe(client, name)
	case "handoff":
		handoff(client, name, args[2:])
	default:
		usage()
	}
}
