/**
 * The demo category tree: ten departments with five child categories each, four sub categories under
 * every child and three sub-child categories under every sub (10 + 50 + 200 + 600 records).
 */
export const departments: Record<string, string[]> = {
  Electronics: ['Smartphones', 'Laptops', 'Televisions', 'Cameras', 'Audio'],
  Fashion: ['Men Clothing', 'Women Clothing', 'Shoes', 'Bags', 'Watches'],
  'Home and Garden': ['Furniture', 'Kitchenware', 'Bedding', 'Lighting', 'Garden Tools'],
  'Health and Beauty': ['Skin Care', 'Hair Care', 'Makeup', 'Fragrances', 'Personal Care'],
  Sports: ['Fitness Equipment', 'Cycling', 'Team Sports', 'Outdoor Recreation', 'Water Sports'],
  Toys: ['Building Sets', 'Dolls', 'Board Games', 'Puzzles', 'Remote Control Toys'],
  Automotive: ['Car Electronics', 'Car Care', 'Motorcycle Parts', 'Tyres', 'Interior Accessories'],
  Groceries: ['Beverages', 'Snacks', 'Rice and Grains', 'Spices', 'Dairy'],
  Books: ['Fiction', 'Textbooks', 'Children Books', 'Comics', 'Religious Books'],
  'Office Supplies': ['Stationery', 'Printers', 'Office Furniture', 'Paper Products', 'Desk Organisers'],
};

/** Sub categories of every child: the ways shoppers narrow a child category down. */
export const subKinds = ['Premium', 'Everyday', 'Budget', 'Refurbished'];

/** Sub-child categories of every sub. */
export const subChildKinds = ['New Arrivals', 'Best Sellers', 'Clearance'];
