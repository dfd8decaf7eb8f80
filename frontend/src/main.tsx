import { preloadRoute } from "./App";
import { createQueryClient } from "./session";
import "./styles.css";

const queryClient = createQueryClient({ queries: { retry: 1, refetchOnWindowFocus: false } });
preloadRoute(queryClient, window.location);

// React DOM (render.tsx) runs after the page's data is asked for; index.html fetches it with
// the other scripts all the same (vite.config.ts).
const root = document.getElementById("root");
if (root) {
  void import("./render").then(({ renderApp }) => renderApp(root, queryClient));
}
