// The menu shows only what applies at this table: no "League" where no
// league is configured (GET /api/info's `league`). Called by words.js's
// startWords, so every page's menu is trimmed before the page is drawn.
// An older daemon (no `league` field) or one that does not answer keeps
// the menu as written.
export async function menuInfo() {
  try {
    const response = await fetch('/api/info', { cache: 'no-store' });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

export function trimMenu(info, root = document) {
  if (!info || info.league !== false) return;
  for (const link of root.querySelectorAll('header nav a[href^="/league.html"]')) link.remove();
}
