package site

import (
	"context"
	"github.com/mpits/mpits/harness/settings"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowser opens every page of the committed reports' site in headless
// Chromium from disk: every page loads, every link it shows reaches a file
// of the site, every table has rows, and the filters change what is shown.
// With MPITS_SCREENSHOTS=DIR it saves the index, one implementation page
// and one rule page there.
func TestBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium missing: apt-get install chromium (Debian's package, /usr/bin/chromium)")
		}
		t.Skip("chromium missing: apt-get install chromium")
	}
	dir, _ := committedSite(t, true)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("allow-file-access-from-files", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 4*time.Minute) // every external process has a deadline
	defer cancel()

	var pages []string
	fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			pages = append(pages, p)
		}
		return err
	})
	start := time.Now()
	for _, p := range pages {
		_, err := chromedp.Run(ctx, chromedp.Navigate(fileURL(dir, p)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[shown](`({
			links: [...document.querySelectorAll("a[href], img[src], script[src], link[href]")].map(e => e.href || e.src),
			tables: [...document.querySelectorAll("table")].map(t => t.querySelectorAll("tbody tr").length),
			title: document.querySelector("h1") ? document.querySelector("h1").textContent : ""})`))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got.Title == "" {
			t.Errorf("%s shows no title", p)
		}
		if kind := strings.Split(p, "/")[0]; (kind == "index.html" || kind == "impl" || kind == "rule") && len(got.Tables) == 0 {
			t.Errorf("%s shows no table", p)
		}
		for i, n := range got.Tables {
			if n == 0 {
				t.Errorf("%s: table %d has no row", p, i+1)
			}
		}
		for _, l := range got.Links {
			u, err := url.Parse(l)
			if err != nil || u.Scheme != "file" {
				continue
			}
			if _, err := os.Stat(u.Path); err != nil {
				t.Errorf("%s: broken link %s", p, l)
			}
		}
	}
	t.Logf("%d pages opened in %s", len(pages), time.Since(start).Round(time.Millisecond))

	for _, p := range []string{"index.html", "impl/openmpi-sid.html"} {
		if _, err := chromedp.Run(ctx, chromedp.Navigate(fileURL(dir, p))); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		all := visible(ctx, t, "", "")
		fails := visible(ctx, t, "status", "fail")
		normative := visible(ctx, t, "basis", "normative")
		if !(0 < fails && fails < all) || normative > fails {
			t.Errorf("%s: the filters do not change what is shown: %d rows, %d with status fail, %d of them normative", p, all, fails, normative)
		}
		t.Logf("%s: %d rows, %d fail, %d fail and normative", p, all, fails, normative)
	}

	if out := settings.Setting("MPITS_SCREENSHOTS").String(); out != "" {
		for _, s := range []struct{ page, png string }{{"index.html", "index.png"}, {"impl/openmpi-sid.html", "impl-openmpi-sid.png"}, {"rule/CB-7.html", "rule-CB-7.png"}} {
			if _, err := chromedp.Run(ctx, chromedp.Navigate(fileURL(dir, s.page))); err != nil {
				t.Fatal(err)
			}
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, s.png), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// shown is what a page shows of itself.
type shown struct {
	Links  []string `json:"links"`
	Tables []int    `json:"tables"`
	Title  string   `json:"title"`
}

// visible sets the page's filter name to value (none: no change) as a
// person would, choosing it, and counts the rows of its filtered table
// that are shown.
func visible(ctx context.Context, t *testing.T, name, value string) int {
	t.Helper()
	if name != "" {
		if _, err := chromedp.Run(ctx, chromedp.SetValue(`select[data-filter="`+name+`"]`, value)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('select[data-filter="`+name+`"]').dispatchEvent(new Event("change"))`)); err != nil {
			t.Fatal(err)
		}
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("table.filterable tbody tr")].filter(r => r.offsetParent !== null).length`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func fileURL(dir, p string) string {
	abs, _ := filepath.Abs(filepath.Join(dir, filepath.FromSlash(p)))
	return (&url.URL{Scheme: "file", Path: abs}).String()
}
