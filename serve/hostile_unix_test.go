//go:build unix

package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSlowBodyHoldsNoSlot: clients sending their bodies a byte at a time
// do not hold the concurrency slots (they did, keeping everyone else at
// 503 for the whole read timeout): with one slot and two slow clients, a
// quick request is answered.
func TestSlowBodyHoldsNoSlot(t *testing.T) {
	lr, _ := models(t)
	s := newServer(t, &Options{MaxConcurrent: 1}, Spec{Name: "lr", Path: lr})
	ln := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln)
	addr := ln.Addr().String()
	body := `{"rows": [[1,2,3,4]]}`
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /v1/predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:3])
	}
	time.Sleep(200 * time.Millisecond) // both slow requests are in
	resp, err := http.Post("http://"+addr+"/v1/predict", jsonType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("beside two slow bodies: %d %s", resp.StatusCode, raw)
	}
}

// TestReloadFromPipe: a reload whose model path has become a named pipe
// fails at once (it blocked forever in the open, holding a slot) and the
// old model keeps serving.
func TestReloadFromPipe(t *testing.T) {
	lr, _ := models(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.aer")
	b, err := os.ReadFile(lr)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, &Options{MaxConcurrent: 1}, Spec{Name: "lr", Path: path})
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	done := make(chan int, 1)
	go func() {
		code, _, _ := do(t, s, "POST", "/v1/models/lr/reload", "", "")
		done <- code
	}()
	select {
	case code := <-done:
		if code != 500 {
			t.Errorf("reload from a pipe: %d", code)
		}
	case <-time.After(10 * time.Second):
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("the reload blocked on the pipe")
	}
	if code, _, raw := do(t, s, "POST", "/v1/predict", jsonType, `{"rows": [[1,2,3,4]]}`); code != 200 {
		t.Errorf("after the failed reload: %d %s", code, raw)
	}
}
