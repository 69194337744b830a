// Defines each element as the page first uses it; on the server, while Docusaurus renders, it
// does nothing.
import "agent-memory-widgets";
