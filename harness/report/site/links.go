package site

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
)

// CheckSite reads every page of the site in dir and names each broken
// link (a relative href or src whose file is missing) and each empty table
// (no row in its body): a site a browser would show broken.
func CheckSite(dir string) error {
	var problems []string
	pages := 0
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return err
		}
		links, empty, err := scan(string(data))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", p, err))
		}
		for _, l := range links {
			if target, ok := localTarget(p, l); ok {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
					problems = append(problems, fmt.Sprintf("%s: broken link %q (no %s)", p, l, target))
				}
			}
		}
		for _, t := range empty {
			problems = append(problems, fmt.Sprintf("%s: table %s has no row", p, t))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if pages == 0 {
		return fmt.Errorf("%s has no HTML page: write the site first (mpits report --html %s)", dir, dir)
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// localTarget is the site file a link of page p points at; not ok for the
// web, mailto and a link within the page.
func localTarget(p, link string) (string, bool) {
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return "", false
	}
	return path.Join(path.Dir(p), u.Path), true
}

// scan reads a page's links (href, src) and its tables without a body row.
func scan(page string) (links, empty []string, err error) {
	z := html.NewTokenizer(strings.NewReader(page))
	type table struct {
		id   string
		rows int
	}
	var tables []*table
	inBody := false
	n := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err().Error() != "EOF" {
				return links, empty, z.Err()
			}
			return links, empty, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			for _, a := range t.Attr {
				if a.Key == "href" || a.Key == "src" {
					links = append(links, a.Val)
				}
			}
			switch t.Data {
			case "table":
				n++
				id := fmt.Sprintf("#%d", n)
				for _, a := range t.Attr {
					if a.Key == "id" {
						id = a.Val
					}
				}
				tables = append(tables, &table{id: id})
			case "tbody":
				inBody = true
			case "tr":
				if inBody && len(tables) > 0 {
					tables[len(tables)-1].rows++
				}
			}
		case html.EndTagToken:
			t := z.Token()
			switch t.Data {
			case "tbody":
				inBody = false
			case "table":
				if k := len(tables); k > 0 {
					if tables[k-1].rows == 0 {
						empty = append(empty, tables[k-1].id)
					}
					tables = tables[:k-1]
				}
			}
		}
	}
}
