package cfa

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/specbridge/specbridge/internal/authguard"
)

// RequireToken wraps the API so that every request but GET /healthz and
// GET /metrics must carry "Authorization: Bearer <token>" with one of
// tokens; others get 401. Failures are rate-limited per source address
// and logged by sample (internal/authguard): an address over its budget
// gets 429 without a check until its window ends.
func RequireToken(h http.Handler, tokens []string, guard *authguard.Guard) (http.Handler, error) {
	if len(tokens) == 0 {
		return nil, errors.New("cfa: at least one API token is required")
	}
	var want [][]byte
	for _, t := range tokens {
		if t == "" {
			return nil, errors.New("cfa: an API token is empty")
		}
		want = append(want, []byte(t))
	}
	if guard == nil {
		guard = authguard.New(nil, "analyzer API")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && (r.URL.Path == "/healthz" || r.URL.Path == "/metrics") {
			h.ServeHTTP(w, r)
			return
		}
		if guard.Blocked(r.RemoteAddr) {
			http.Error(w, "too many failed authentications from this address; try later", http.StatusTooManyRequests)
			return
		}
		auth := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(auth, "Bearer ")
		match := 0
		for _, t := range want {
			match |= subtle.ConstantTimeCompare([]byte(token), t)
		}
		if !ok || match != 1 {
			guard.Failed(r.RemoteAddr, auth)
			w.Header().Set("WWW-Authenticate", `Bearer realm="specbridge-cfa"`)
			http.Error(w, "missing or bad bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}), nil
}
