// `npm run lint:docs`: every relative link and #heading in the tree's Markdown resolves. Offline: no URL is fetched.
import remarkValidateLinks from "remark-validate-links";

export default {
  plugins: [[remarkValidateLinks, { repository: false }]],
};
