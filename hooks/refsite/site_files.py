"""The files the data adds to a site, for MkDocs' hooks and for `python -m refsite.generate` alike.

Both hand a static generator the same things, made here once:
- every generated page as Markdown at its `src_uri` (refsite.render, then refsite.markdown_page),
  with a title the navigation gives it, and the navigation itself (`nav_config`);
- our scripts and styles: the ES modules linked into `modules-linked.js` and `modules-lazy.js`
  (refsite.classic_scripts), the stylesheets joined into `site.css`, and `extra_css` /
  `extra_javascript` rewritten to load those instead (`own_assets_config`, `own_assets`);
- what goes next to them once the pages are written: each reference page's ranked index and
  rules scripts, then everything under assets/refsite/ minified (`finish_assets`).

The hooks call these on a MkDocs build (refsite_hooks, linking_hooks); the command calls them
to write a folder any generator can take without hooks. Data problems come out as
refsite.load.DataError from `GeneratedPages.load`; problems of the site's own files as
SiteFilesError, each with the message the build prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.structure.files import File, file_sort_key
from mkdocs.utils import get_relative_url, nest_paths

from .classic_scripts import ModuleLinkError, link_modules
from .find_index import ASSETS, INDEX_DIR, BackgroundIndexes, write_indexes
from .find_rules import write_rules
from .markdown_page import PageStructureError, page_markdown
from .minify import minify_tree
from .model import Site
from .pipeline import load_site
from .render import Renderer
from .sitemap import SitePage, site_pages

DATA_DIR = "data"  # beside mkdocs.yml

LINKED = f"{ASSETS}/modules-linked.js"
LAZY = f"{ASSETS}/modules-lazy.js"  # what only import() reaches: the ranked half, the home page's panel
STYLES = f"{ASSETS}/site.css"
# A reference page's front matter: its contents as plain links (overrides/partials/toc.html), so
# that nothing at load lays out the sections it skips while off screen.
STATIC_TOC = "---\nstatic_toc: true\n---\n\n"
OWN_STYLES = f"{ASSETS}/"


class SiteFilesError(Exception):
    """A problem of the site's own files (not of the data): the message says what and where."""


def data_dir(config_file_path: str | Path) -> Path:
    return Path(config_file_path).parent / DATA_DIR


def page_url(src_uri: str, use_directory_urls: bool) -> str:
    """The page's URL as MkDocs gives it (`pytorch/01.html`, or `pytorch/01/` with directory URLs)."""
    return File(src_uri, None, None, use_directory_urls).url


# --- pages and navigation ---------------------------------------------------------------------

class GeneratedPages:
    """Every page the data produces, rendered to Markdown on request."""

    def __init__(self, site: Site):
        self.site = site
        self.pages = site_pages(site)
        self.by_uri = {page.src_uri: page for page in self.pages}
        self.renderer = Renderer(site)

    @classmethod
    def load(cls, data: Path) -> GeneratedPages:
        """Raises refsite.load.DataError listing every problem of the data."""
        return cls(load_site(data))

    @property
    def references(self) -> list:
        return [page.reference for page in self.pages if page.kind == "reference"]

    def check_hand_written(self, src_uris: Iterable[str], docs_name: str = "docs") -> None:
        for src_uri in src_uris:
            if src_uri in self.by_uri:
                raise SiteFilesError(f"{docs_name}/{src_uri} is written by hand, but the data generates it too; "
                                     "remove one of them")

    def markdown(self, page: SitePage, use_directory_urls: bool) -> str:
        """The page as Markdown (refsite.markdown_page): its links relative to where it will be served.
        SiteFilesError, naming the page, where Markdown could not give its HTML back."""
        here = page_url(page.src_uri, use_directory_urls)
        urls: dict[str, str] = {}  # a page links to the same few pages many times over

        def href(target_src_uri: str, anchor: str | None = None) -> str:
            url = urls.get(target_src_uri)
            if url is None:
                url = urls[target_src_uri] = get_relative_url(page_url(target_src_uri, use_directory_urls), here)
            return f"{url}#{anchor}" if anchor else url

        rendered = self.renderer.render(page, href)
        try:
            markdown = page_markdown(rendered.html, rendered.toc)
        except PageStructureError as error:  # the templates' doing, not the data's
            raise SiteFilesError(f"{page.src_uri}: {error}") from None
        return STATIC_TOC + markdown if page.kind == "reference" else markdown

    def nav_config(self, documentation_pages: Iterable[File]) -> list:
        """The navigation MkDocs would make of these pages (its own order and nesting, as with no
        `nav:`), with the titles the data gives: each generated page's, and a book's folder titled
        by the book ("PyTorch这个框架本身", not "Pytorch" from the folder's name). The pages carry
        no title of their own; a hand-written page keeps the one of its first heading."""
        ordered = sorted(documentation_pages, key=file_sort_key)
        nav = nest_paths(file.src_uri for file in ordered if file.inclusion.is_in_nav())

        def titled(item):
            if isinstance(item, str):
                page = self.by_uri.get(item)
                return {page.title: item} if page else item
            (title, children), = item.items()
            first = children[0] if children else None  # a page's path, or a folder's section
            page = self.by_uri.get(first) if isinstance(first, str) else None
            return {page.book.title if page and page.book else title: [titled(child) for child in children]}

        return [titled(item) for item in nav]


# --- our scripts and styles -------------------------------------------------------------------

@dataclass(frozen=True)
class OwnAssets:
    extra_css: list[str]  # the config's extra_css, ours joined into STYLES
    extra_javascript: list  # the config's extra_javascript, our modules linked into LINKED
    styles: list[str]  # what STYLES joins, in order
    modules: list[str]  # the module entries LINKED runs, in order


def own_assets_config(extra_css: Sequence, extra_javascript: Sequence) -> OwnAssets:
    """`extra_css` with our stylesheets (under assets/refsite/) replaced by the one joined file
    where the first of them was; `extra_javascript` with its module entries replaced by the one
    linked, deferred classic script where the first of them was."""
    styles = [str(path).removeprefix("./") for path in extra_css]
    own_styles = [path for path in styles if path.startswith(OWN_STYLES)]
    if own_styles:
        at = styles.index(own_styles[0])
        others = [path for path in styles if path not in own_styles]
        styles = others[:at] + [STYLES] + others[at:]
    scripts = list(extra_javascript)
    modules = [script for script in scripts if getattr(script, "type", "") == "module"]
    if modules:
        at = scripts.index(modules[0])
        classic = [script for script in scripts if script not in modules]
        linked = ExtraScriptValue(LINKED)
        linked.defer = True  # runs once the page is parsed, as the modules did
        scripts = classic[:at] + [linked] + classic[at:]
    return OwnAssets(styles, scripts, own_styles, [str(script).removeprefix("./") for script in modules])


def own_assets(own: OwnAssets, read: Callable[[str], str]) -> dict[str, str]:
    """The joined stylesheet and the linked scripts, by site path. `read(path)` gives a source file
    of the site by its site path, FileNotFoundError when there is none."""
    files = {}
    if own.styles:
        try:
            files[STYLES] = "\n".join(f"/* {path} */\n{read(path)}" for path in own.styles)
        except FileNotFoundError as missing:
            raise SiteFilesError(f"extra_css names {missing}, which is not in the site") from None
    if own.modules:
        try:
            files[LINKED], files[LAZY] = link_modules(own.modules, read, LINKED, LAZY)
        except ModuleLinkError as error:
            raise SiteFilesError(f"linking the site's modules: {error}") from None
    return files


def finish_assets(folder: str | Path, references: Sequence, indexes: BackgroundIndexes | None = None) -> int:
    """Into `folder` (the built site, or the folder a generator copies as is): each reference page's
    ranked index and the honest lookup's templates (pytorch_error_lookup.rule), one small script
    each; then our scripts and styles under assets/refsite/ lose their comments (the indexes are
    compact JSON already). Returns how many bytes minifying saved."""
    folder = Path(folder)
    if indexes is None:
        write_indexes(references, folder)
    else:
        indexes.write(folder)
    write_rules(references, folder)
    return minify_tree(folder / ASSETS, skip=(folder / INDEX_DIR,))
