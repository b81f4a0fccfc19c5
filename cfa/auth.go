package cfa

import (
	"errors"
	"net/http"
	"strings"

	"github.com/specbridge/specbridge/internal/authguard"
	"github.com/specbridge/specbridge/internal/tokens"
)

// RequireToken wraps the API so that every request but GET /healthz and
// GET /metrics must carry "Authorization: Bearer <token>" with one of
// tokens' (read at each request: replacing them, as `specbridge cfa` does
// on SIGHUP, takes effect at once); others get 401. Failures are
// rate-limited per source address and logged by sample
// (internal/authguard): an address over its budget gets 429 without a
// check until its window ends.
func RequireToken(h http.Handler, set *tokens.Set, guard *authguard.Guard) (http.Handler, error) {
	if set == nil || set.Len() == 0 {
		return nil, errors.New("cfa: at least one API token is required")
	}
	if guard == nil {
		guard = authguard.New(nil, "analyzer API")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && (r.URL.Path == "/healthz" || r.URL.Path == "/metrics") {
			h.ServeHTTP(w, r)
			return
		}
		if guard.Blocked(r.RemoteAddr) {
			http.Error(w, "too many failed authentications from this address; try later", http.StatusTooManyRequests)
			return
		}
		auth := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok {
			token = auth // counted and logged as presented
		}
		switch guard.Check(r.RemoteAddr, token, func(t string) bool { return ok && set.Match(t) }) {
		case authguard.Limited:
			http.Error(w, "too many failed authentications from this address; try later", http.StatusTooManyRequests)
			return
		case authguard.Failed:
			w.Header().Set("WWW-Authenticate", `Bearer realm="specbridge-cfa"`)
			http.Error(w, "missing or bad bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}), nil
}
