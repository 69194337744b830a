// The smallest Docusaurus site with the widgets: one client module imports the package (Docusaurus
// imports it on the server too, while it renders each page), and the elements are written in MDX.
export default {
  title: "agent-memory-widgets in Docusaurus",
  url: "http://127.0.0.1",
  baseUrl: "/",
  onBrokenLinks: "throw",
  presets: [["classic", { docs: { routeBasePath: "/" }, blog: false, theme: {} }]],
  clientModules: ["./src/widgets.js"],
};
