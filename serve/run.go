package serve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
)

// Serve answers requests on ln until ctx ends, then shuts down
// gracefully: /readyz turns 503, the listener closes, and requests in
// flight finish (for up to Options.ShutdownTimeout) before Serve
// returns. It returns nil after a graceful shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadTimeout:       s.opt.ReadTimeout,
		ReadHeaderTimeout: s.opt.ReadTimeout,
		WriteTimeout:      s.opt.WriteTimeout,
		IdleTimeout:       s.opt.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String(), "models", s.names)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.closing.Store(true)
	s.log.Info("shutting down: finishing requests in flight", "timeout", s.opt.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.opt.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		srv.Close()
		return err
	}
	s.log.Info("shut down")
	return nil
}
