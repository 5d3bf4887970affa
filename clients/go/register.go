package main

// Registration: POST /v1/bots answers with the secret every later request is signed with.
// It is shown only in that answer, so we keep it in a file the bot reads back on restart.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// SecretSource is the secret: given ($REFEREE_BOT_SECRET), or a file re-read when it
// changes (so a rotated secret written there takes effect without a restart).
type SecretSource struct {
	mu      sync.Mutex
	value   string
	file    string
	modTime time.Time
	cached  string
}

func (s *SecretSource) Get() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.value != "" || s.file == "" {
		return s.value
	}
	st, err := os.Stat(s.file)
	if err != nil {
		return ""
	}
	if !st.ModTime().Equal(s.modTime) {
		raw, _ := os.ReadFile(s.file)
		s.cached, s.modTime = strings.TrimSpace(string(raw)), st.ModTime()
	}
	return s.cached
}

// DefaultSecretFile is where the Python kit keeps it too: $REFEREE_BOT_STATE_DIR, else
// $XDG_STATE_HOME/referee/bots, else ~/.local/state/referee/bots; never the checkout.
func DefaultSecretFile(name string) string {
	dir := os.Getenv("REFEREE_BOT_STATE_DIR")
	if dir == "" {
		base := os.Getenv("XDG_STATE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".local", "state")
		}
		dir = filepath.Join(base, "referee", "bots")
	}
	safe := strings.Trim(regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(name, "_"), "._")
	if safe == "" {
		safe = "bot"
	}
	return filepath.Join(dir, safe+".secret")
}

// call sends one request to the service's /v1 API (with $REFEREE_KEY when set) and decodes
// the answer; a problem detail becomes an error naming its code.
func call(service, method, path string, body any) (map[string]any, error) {
	var reader *bytes.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		reader = bytes.NewReader(data)
	} else {
		reader = bytes.NewReader(nil)
	}
	base := strings.TrimSuffix(strings.TrimRight(service, "/"), "/v1")
	req, _ := http.NewRequest(method, base+"/v1"+path, reader)
	req.Header.Set("Content-Type", "application/json")
	if key := os.Getenv("REFEREE_KEY"); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode >= 300 {
		return out, fmt.Errorf("%v (HTTP %d): %v", out["code"], resp.StatusCode, out["detail"])
	}
	return out, nil
}

// Register the serving bot at url and keep its secret. A URL is registered once: a restart
// that registers again gets bot.url_taken, and goes on with the secret it kept.
func Register(b *bot, service, url, name string, games []string) error {
	if len(games) == 0 {
		listed, err := call(service, "GET", "/games", nil)
		if err != nil {
			return err
		}
		for _, g := range listed["games"].([]any) {
			games = append(games, g.(map[string]any)["name"].(string))
		}
	}
	record, err := call(service, "POST", "/bots", map[string]any{"url": url, "games": games, "name": name})
	if err != nil {
		if record != nil && record["code"] == "bot.url_taken" && b.secret.Get() != "" {
			fmt.Printf("already registered at %s; verifying with the kept secret\n", url)
			return nil
		}
		return err
	}
	secret := record["secret"].(string)
	if err := os.MkdirAll(filepath.Dir(b.secret.file), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(b.secret.file, []byte(secret+"\n"), 0o600); err != nil {
		return err
	}
	b.secret.mu.Lock()
	b.secret.value = secret
	b.secret.mu.Unlock()
	fmt.Printf("registered bot %v with %s for %s; secret kept in %s\n", record["id"], service,
		strings.Join(games, ","), b.secret.file)
	return nil
}
