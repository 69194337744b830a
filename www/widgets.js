// The one script a page includes. It loads an element's code, and that element's wasm core, the
// first time the page uses the element, so a page with only <memory-compaction> never downloads
// the fact store or the playground.
//
//   <script type="module" async src="widgets.js"></script>
//   <memory-compaction></memory-compaction>
//   <memory-forgetting half-life="6"></memory-forgetting>
//   <memory-playground></memory-playground>
//   <memory-forgetting-playground></memory-forgetting-playground>
//
// `async` lets it start while the page is still being parsed (elements are noticed as they
// appear), so the wasm compiles sooner; without it the loader waits for the whole page first.
// Elements added later are noticed too; one placed inside another element's shadow root is not
// (the page cannot see it): import its module directly, for example "./compaction.js". An
// attribute of a setting (half-life="6") loads the larger core that has `withConfig`: leave the
// attributes out for the seed's settings.

import { loadElements } from "./loader.js";

loadElements();
