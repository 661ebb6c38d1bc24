// Realistic pages for web_extract tests: a news-style article wrapped in navigation, ads, a
// cookie banner and a footer, and a long one that has to be summarised.

const CHROME_TOP = `<header class="site-header"><a href="/" class="logo">Lune Daily</a>
<nav class="main-nav"><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li><li><a href="/subscribe">Subscribe now</a></li></ul></nav></header>
<div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <button>Accept all cookies</button></div>
<div class="ad ad-leaderboard" id="ad-top"><a href="https://ads.example/click?id=1">BUY CHEAP WATCHES TODAY - 90% OFF</a></div>`;

const CHROME_BOTTOM = `<aside class="sidebar"><div class="ad ad-sidebar sponsored"><p>Sponsored: Lune Ferries, 20% off every crossing this week</p></div>
<section class="trending"><h3>Trending</h3><ul><li><a href="/a">Celebrity spotted at harbour</a></li><li><a href="/b">Ten recipes for fish</a></li></ul></section></aside>
<footer class="site-footer"><p>© 2026 Lune Daily. All rights reserved.</p><nav><a href="/privacy">Privacy policy</a> · <a href="/terms">Terms</a></nav></footer>`;

export function articlePage(title: string, paragraphs: readonly string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Lune Daily</title>
<script>window.dataLayer = [{ event: 'pageview' }];</script><style>.ad { border: 1px solid red }</style></head>
<body>${CHROME_TOP}
<main><article class="story"><h1>${title}</h1><p class="byline">By Mara Quill</p>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</article></main>
${CHROME_BOTTOM}</body></html>`;
}

export const TIDES_PARAGRAPHS = [
  'The tides of Lune follow the smaller of its two moons, which is why the harbour fills twice a day and empties slowly over the following hours. Fishermen learned this long ago, and their calendars still mark it.',
  'In spring the two moons line up, and the <a href="/tides/spring">spring tides</a> reach the old sea wall. The wall was built in 1802 after a flood that took most of the lower town and half of the fishing fleet.',
  'Visitors should check the tide table at the harbour office before walking out on the flats, where the water returns faster than a person can run.',
];

/** A page whose readable text is far over 4,000 characters, with a fact near the end. */
export function longPage(): { html: string; lateFact: string } {
  const lateFact = 'The harbour master can be reached on extension 4417 during the equinox.';
  const filler = Array.from(
    { length: 40 },
    (_, i) => `Section ${i + 1} of the harbour history records how the quay was widened, how the cranes were replaced, and how the tide gauges were moved further out to sea so that the readings would stay accurate when the sand bars shifted.`,
  );
  return { html: articlePage('A long history of Lune harbour', [...filler, lateFact]), lateFact };
}
