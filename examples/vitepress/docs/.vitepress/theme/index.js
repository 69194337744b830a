// The default theme, and the package: imported on the server too while VitePress builds, where it
// does nothing; in the browser it defines each element as the page first uses it.
import DefaultTheme from "vitepress/theme";
import "agent-memory-widgets";

export default DefaultTheme;
