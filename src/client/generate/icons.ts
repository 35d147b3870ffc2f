/**
 * Menu icons by the names manifests use (manifests hold names, never components). Each is imported
 * on its own so only these reach the bundle; add a name here when a manifest starts using it.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import VideoLibrary from '@mui/icons-material/VideoLibrary';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import AccountBalance from '@mui/icons-material/AccountBalance';
import ShoppingBag from '@mui/icons-material/ShoppingBag';
import Assignment from '@mui/icons-material/Assignment';
import AccountTree from '@mui/icons-material/AccountTree';
import Article from '@mui/icons-material/Article';
import AttachMoney from '@mui/icons-material/AttachMoney';
import Badge from '@mui/icons-material/Badge';
import Campaign from '@mui/icons-material/Campaign';
import Category from '@mui/icons-material/Category';
import Collections from '@mui/icons-material/Collections';
import Comment from '@mui/icons-material/Comment';
import CurrencyExchange from '@mui/icons-material/CurrencyExchange';
import Dashboard from '@mui/icons-material/Dashboard';
import Folder from '@mui/icons-material/Folder';
import FormatQuote from '@mui/icons-material/FormatQuote';
import Forum from '@mui/icons-material/Forum';
import Description from '@mui/icons-material/Description';
import Email from '@mui/icons-material/Email';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Gavel from '@mui/icons-material/Gavel';
import Groups from '@mui/icons-material/Groups';
import Help from '@mui/icons-material/Help';
import Label from '@mui/icons-material/Label';
import Link from '@mui/icons-material/Link';
import LiveTv from '@mui/icons-material/LiveTv';
import LocalShipping from '@mui/icons-material/LocalShipping';
import LocationCity from '@mui/icons-material/LocationCity';
import Menu from '@mui/icons-material/Menu';
import MenuOpen from '@mui/icons-material/MenuOpen';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Payments from '@mui/icons-material/Payments';
import People from '@mui/icons-material/People';
import Percent from '@mui/icons-material/Percent';
import Person from '@mui/icons-material/Person';
import PhotoLibrary from '@mui/icons-material/PhotoLibrary';
import History from '@mui/icons-material/History';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import Public from '@mui/icons-material/Public';
import QrCode2 from '@mui/icons-material/QrCode2';
import Receipt from '@mui/icons-material/Receipt';
import RestoreFromTrash from '@mui/icons-material/RestoreFromTrash';
import Segment from '@mui/icons-material/Segment';
import Share from '@mui/icons-material/Share';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import Star from '@mui/icons-material/Star';
import Store from '@mui/icons-material/Store';
import Storefront from '@mui/icons-material/Storefront';
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Tune from '@mui/icons-material/Tune';
import ViewCarousel from '@mui/icons-material/ViewCarousel';
import Work from '@mui/icons-material/Work';

const ICONS: Record<string, SvgIconComponent> = {
  VideoLibrary,
  ReceiptLong,
  AccountBalance,
  ShoppingBag,
  Assignment,
  AccountBalanceWallet,
  AccountTree,
  Article,
  AttachMoney,
  Badge,
  Campaign,
  Category,
  Collections,
  Comment,
  CurrencyExchange,
  Dashboard,
  Folder,
  FormatQuote,
  Forum,
  Description,
  Email,
  SwapHoriz,
  Gavel,
  Groups,
  Help,
  Label,
  Link,
  LiveTv,
  LocalShipping,
  LocationCity,
  Menu,
  MenuOpen,
  OpenInNew,
  Payments,
  People,
  Percent,
  Person,
  PhotoLibrary,
  History,
  PriorityHigh,
  Public,
  QrCode2,
  Receipt,
  RestoreFromTrash,
  Segment,
  Share,
  ShoppingCart,
  Star,
  Store,
  Storefront,
  SubdirectoryArrowRight,
  SupportAgent,
  Tune,
  ViewCarousel,
  Work,
};

/** The icon a manifest names; a plain label icon for a name this map does not know yet. */
export function iconFor(name: string | undefined): SvgIconComponent {
  return (name && ICONS[name]) || Label;
}

export const knownIconNames = (): string[] => Object.keys(ICONS);
