package loadtest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/aer-go/aer/loadtest"
)

// Send 50 requests a second for one second to a server and read the
// latency quantiles.
func Example() {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{"rows":[{"score":0.1,"label":"0"}]}`)
	}))
	defer ts.Close()
	res, err := loadtest.Run(context.Background(), &loadtest.Settings{
		URL:      ts.URL,
		Bodies:   [][]byte{[]byte(`{"rows":[[1.5,2]]}`)},
		Rate:     50,
		Duration: time.Second,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Requests, "requests,", res.Errors, "errors")
	fmt.Println("p50 <= p99:", res.P50 <= res.P99)
	// Output:
	// 50 requests, 0 errors
	// p50 <= p99: true
}
