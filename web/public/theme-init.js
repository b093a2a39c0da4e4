// Sets the theme attribute before the first paint (dark unless isDarkMode is 'false').
try {
  if (globalThis.localStorage.getItem('isDarkMode') === 'false') globalThis.document.documentElement.removeAttribute('data-theme');
  else globalThis.document.documentElement.setAttribute('data-theme', 'dark');
} catch {
  globalThis.document.documentElement.setAttribute('data-theme', 'dark');
}
