/* global document, localStorage */
// Sets the theme attribute before the first paint (dark unless isDarkMode is 'false').
try {
  if (localStorage.getItem('isDarkMode') === 'false') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', 'dark');
} catch {
  document.documentElement.setAttribute('data-theme', 'dark');
}
