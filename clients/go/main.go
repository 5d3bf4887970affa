// A bot protocol v1 starter in Go (standard library only): it plays a random legal move in
// every game. Put your own strategy in choose() (strategy.go).
//
//	go build -o starter-bot .
//	./starter-bot --port 9001 --register http://127.0.0.1:8000   # once: learns its secret
//	./starter-bot --port 9001                                     # later: reads it back
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

const maxBody = 16 << 20

type bot struct {
	info     map[string]any
	secret   *SecretSource
	verifier *Verifier
}

func (b *bot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/" {
		send(w, 200, b.info) // unsigned: the service reads it before it has given us a secret
		return
	}
	route := r.URL.Path
	if r.Method != http.MethodPost || (route != "/start" && route != "/move" && route != "/end") {
		send(w, 404, map[string]any{"error": "no endpoint"})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		send(w, 413, map[string]any{"error": "too large"})
		return
	}
	secret := b.secret.Get()
	reason := "no secret yet" // an unregistered bot verifies nothing, so it accepts nothing
	if secret != "" {
		reason = b.verifier.Check(secret, r.Header, body, time.Now().Unix())
	}
	if reason != "" {
		send(w, 401, map[string]any{"error": reason})
		return
	}
	var request map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // keep integers exact: a move is sent back as it came
	if err := dec.Decode(&request); err != nil {
		send(w, 400, map[string]any{"error": "the body is not JSON"})
		return
	}
	if route != "/move" {
		send(w, 200, map[string]any{}) // /start and /end: any 2xx
		return
	}
	move, err := choose(request)
	if err != nil { // our own bug: say so; the service records the failure, we never fake a move
		log.Print(err)
		send(w, 500, map[string]any{"error": err.Error()})
		return
	}
	send(w, 200, map[string]any{"move": move})
}

// send answers with an explicit Content-Length, so the connection stays alive (HTTP/1.1).
func send(w http.ResponseWriter, status int, payload any) {
	data, _ := json.Marshal(payload)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

func main() {
	port := flag.Int("port", 9001, "port to serve on (0: any free one)")
	host := flag.String("host", "127.0.0.1", "address to serve on")
	name := flag.String("name", "go-starter", "the bot's name")
	games := flag.String("games", "", "games to register for, comma-separated (default: all)")
	secretFile := flag.String("secret-file", "", "where the secret is kept (default: the state dir)")
	register := flag.String("register", "", "service URL to register with (once)")
	publicURL := flag.String("public-url", "", "the URL the service calls (default: http://host:port)")
	flag.Parse()

	file := *secretFile
	if file == "" {
		file = os.Getenv("REFEREE_BOT_SECRET_FILE")
	}
	if file == "" {
		file = DefaultSecretFile(*name)
	}
	claimed := []string{}
	if *games != "" {
		claimed = strings.Split(*games, ",")
	}
	b := &bot{
		info:     map[string]any{"apiversion": "1", "name": *name, "author": "go starter", "games": claimed},
		secret:   &SecretSource{value: os.Getenv("REFEREE_BOT_SECRET"), file: file},
		verifier: NewVerifier(),
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, fmt.Sprint(*port)))
	if err != nil {
		log.Fatal(err)
	}
	// net/http speaks HTTP/1.1 with keep-alive; Go sets TCP_NODELAY on accepted connections
	server := &http.Server{Handler: b, IdleTimeout: 60 * time.Second, ReadHeaderTimeout: 10 * time.Second}
	go func() { log.Fatal(server.Serve(ln)) }()
	reachable := *host
	if reachable == "0.0.0.0" {
		reachable = "127.0.0.1"
	}
	url := *publicURL
	if url == "" {
		url = fmt.Sprintf("http://%s", net.JoinHostPort(reachable, fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)))
	}
	fmt.Printf("%s serving %s (bot protocol v1)\n", *name, url)
	if *register != "" {
		// the service calls our GET / during this request, so we serve first, then register
		if err := Register(b, *register, url, *name, claimed); err != nil {
			fmt.Fprintln(os.Stderr, "registration refused:", err)
			os.Exit(1)
		}
	} else if b.secret.Get() == "" {
		fmt.Printf("no secret in %s yet: every POST is refused until you --register\n", file)
	}
	select {}
}
