/**
 * Menu icons by the names manifests use (manifests hold names, never components). Each is imported
 * on its own so only these reach the bundle; add a name here when a manifest starts using it.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import AccountTree from '@mui/icons-material/AccountTree';
import Article from '@mui/icons-material/Article';
import AttachMoney from '@mui/icons-material/AttachMoney';
import Badge from '@mui/icons-material/Badge';
import Category from '@mui/icons-material/Category';
import Collections from '@mui/icons-material/Collections';
import CurrencyExchange from '@mui/icons-material/CurrencyExchange';
import Forum from '@mui/icons-material/Forum';
import Gavel from '@mui/icons-material/Gavel';
import Groups from '@mui/icons-material/Groups';
import Help from '@mui/icons-material/Help';
import Label from '@mui/icons-material/Label';
import LiveTv from '@mui/icons-material/LiveTv';
import LocalShipping from '@mui/icons-material/LocalShipping';
import Menu from '@mui/icons-material/Menu';
import Payments from '@mui/icons-material/Payments';
import People from '@mui/icons-material/People';
import Percent from '@mui/icons-material/Percent';
import Person from '@mui/icons-material/Person';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import QrCode2 from '@mui/icons-material/QrCode2';
import Receipt from '@mui/icons-material/Receipt';
import Segment from '@mui/icons-material/Segment';
import Share from '@mui/icons-material/Share';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import Star from '@mui/icons-material/Star';
import Store from '@mui/icons-material/Store';
import Storefront from '@mui/icons-material/Storefront';
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight';
import SupportAgent from '@mui/icons-material/SupportAgent';
import ViewCarousel from '@mui/icons-material/ViewCarousel';
import Work from '@mui/icons-material/Work';

const ICONS: Record<string, SvgIconComponent> = {
  AccountBalanceWallet,
  AccountTree,
  Article,
  AttachMoney,
  Badge,
  Category,
  Collections,
  CurrencyExchange,
  Forum,
  Gavel,
  Groups,
  Help,
  Label,
  LiveTv,
  LocalShipping,
  Menu,
  Payments,
  People,
  Percent,
  Person,
  PriorityHigh,
  QrCode2,
  Receipt,
  Segment,
  Share,
  ShoppingCart,
  Star,
  Store,
  Storefront,
  SubdirectoryArrowRight,
  SupportAgent,
  ViewCarousel,
  Work,
};

/** The icon a manifest names; a plain label icon for a name this map does not know yet. */
export function iconFor(name: string | undefined): SvgIconComponent {
  return (name && ICONS[name]) || Label;
}

export const knownIconNames = (): string[] => Object.keys(ICONS);
