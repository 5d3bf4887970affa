package main

// Bot protocol v1 signatures, exactly as the service signs (arena/protocol.py):
//   X-Referee-Signature = "v1=" + hex(HMAC-SHA256(key = secret's UTF-8 bytes,
//                                                 timestamp + "." + nonce + "." + raw body))

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync"
)

// MaxSkewSeconds is how far a request's timestamp may be from our clock (the service's window).
const MaxSkewSeconds = 300

// Signature is the header value the service sends for this body.
func Signature(secret, timestamp, nonce string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "." + nonce + "."))
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Verifier checks signature, timestamp window and nonce reuse; safe for concurrent use.
// Nonces are kept only while their timestamp is inside the window: an older replay is
// refused as stale anyway, so memory is bounded by the request rate.
type Verifier struct {
	mu        sync.Mutex
	seen      map[string]int64
	nextPrune int64
}

func NewVerifier() *Verifier { return &Verifier{seen: map[string]int64{}} }

// Check returns "" when the request is signed with secret and fresh, else why to refuse it.
func (v *Verifier) Check(secret string, h http.Header, body []byte, now int64) string {
	ts, nonce, given := h.Get("X-Referee-Timestamp"), h.Get("X-Referee-Nonce"), h.Get("X-Referee-Signature")
	stamp, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || stamp < 0 || nonce == "" || given == "" {
		return "unsigned request"
	}
	if d := now - stamp; d > MaxSkewSeconds || d < -MaxSkewSeconds {
		return "stale timestamp"
	}
	// constant-time comparison: a byte-by-byte compare would leak the signature's prefix
	if !hmac.Equal([]byte(Signature(secret, ts, nonce, body)), []byte(given)) {
		return "bad signature"
	}
	// only signed, fresh requests get here, so a forger cannot fill the table
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, dup := v.seen[nonce]; dup {
		return "replayed nonce"
	}
	v.seen[nonce] = stamp
	if now >= v.nextPrune {
		for n, t := range v.seen {
			if t < now-MaxSkewSeconds {
				delete(v.seen, n)
			}
		}
		v.nextPrune = now + MaxSkewSeconds/10
	}
	return ""
}
