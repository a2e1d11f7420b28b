// The page's first script (index.html, before the app's): see requests.ts.
import { startEarlyRequests } from './requests';

startEarlyRequests();
