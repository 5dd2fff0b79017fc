// A classic script of the site's data (a page's ranked index, its lookup rules), loaded once per
// session: scripts, not JSON, so that a copy opened from disk (file://, where fetch is refused)
// loads them too.

const scripts = new Map(); // url -> Promise, so each script loads once per session

export function loadScript(url) {
  if (!scripts.has(url)) {
    scripts.set(url, new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.async = true;
      script.onload = () => resolve(script);
      script.onerror = () => {
        scripts.delete(url);
        reject(new Error(`could not load ${url}`));
      };
      document.head.append(script);
    }));
  }
  return scripts.get(url);
}
