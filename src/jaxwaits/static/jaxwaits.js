// The site's behaviours that need script; without script the site reads the same.
"use strict";

// A claim's "copy link" puts its permanent link on the clipboard, and says so. Where the
// clipboard cannot be written, the click follows the link, so it can be copied from there.
function copyBySelection(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("the clipboard refused the copy");
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    copyBySelection(text);
  }
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a.jaxwaits-copy-link");
  if (!link) return;
  event.preventDefault();
  copyText(link.href).then(
    () => {
      link.textContent = "copied";
      link.classList.add("copied");
      setTimeout(() => {
        link.textContent = "copy link";
        link.classList.remove("copied");
      }, 2000);
    },
    () => { window.location.href = link.href; },
  );
});

// A claim's mark shows the claim's sentence on hover and focus (CSS). A touch screen has no
// hover: there the first tap on a mark shows the sentence, a second follows the link, and a tap
// elsewhere closes it.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.jaxwaits-claim-link");
  const ref = link ? link.parentElement : null;
  for (const open of document.querySelectorAll(".jaxwaits-claim-ref.open")) {
    if (open !== ref) open.classList.remove("open");
  }
  if (!ref || ref.classList.contains("open") || !matchMedia("(hover: none)").matches) return;
  event.preventDefault();
  ref.classList.add("open");
});

// Search results summarise a page from its article, not from the whole main block (which, in
// this theme, starts with the page's buttons and settings).
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  const fromMain = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    const article = page.querySelector("article.bd-article");
    if (!article) return fromMain(htmlString, anchor);
    const dropped = ".headerlink, script, style, .jaxwaits-copy-link, .jaxwaits-claim-tip";
    for (const drop of article.querySelectorAll(dropped)) {
      drop.remove();
    }
    const part = anchor ? article.querySelector(anchor) : null;
    return (part || article).textContent;
  };
});

// The menu buttons. The base theme wires only the first button of each kind on the page, a
// header copy that the book theme hides; the buttons a reader sees did nothing, so at phone
// width the site's navigation and a page's contents could not be opened. A click on a visible
// one is handed to the wired one.
document.addEventListener("click", (event) => {
  for (const side of ["primary", "secondary"]) {
    const button = event.target.closest(`.${side}-toggle`);
    const wired = document.querySelector(`.${side}-toggle`);
    if (button && wired && button !== wired) {
      event.preventDefault();
      wired.click();
      return;
    }
  }
});
